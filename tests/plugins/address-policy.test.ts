import { describe, expect, it } from "vitest";
import { addressKey, classifyAddress } from "../../plugins/fetch/address-policy.js";

describe("classifyAddress", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["8.8.8.8", "public"],
    ["93.184.215.14", "public"],
    ["0.0.0.0", "unspecified"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.1", "public"],
    ["169.254.169.254", "link-local"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.10", "documentation"],
    ["198.18.0.1", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2606:4700:4700::1111", "public"],
    ["2a00:1450:4001::200e", "public"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:8.8.8.8", "public"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["64:ff9b::8.8.8.8", "public"],
    ["2002:7f00:1::", "loopback"],
    ["2002:0808:0808::", "public"],
    ["2001::1", "reserved"],
    ["100::1", "reserved"],
    ["3fff::1", "public"],
    ["4000::1", "reserved"],
  ];

  it.each(cases)("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it("throws for something that is not an IP address", () => {
    expect(() => classifyAddress("example.com")).toThrow(TypeError);
  });
});

describe("addressKey", () => {
  it("gives an IPv4 address and its IPv4-mapped IPv6 form the same key", () => {
    expect(addressKey("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(addressKey("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(addressKey("[::FFFF:127.0.0.1]")).toBe("127.0.0.1");
  });

  it("normalises IPv6 spellings", () => {
    expect(addressKey("::1")).toBe(addressKey("0:0:0:0:0:0:0:1"));
    expect(addressKey("::1")).not.toBe(addressKey("127.0.0.1"));
  });

  it("returns undefined for host names", () => {
    expect(addressKey("localhost")).toBeUndefined();
  });
});
