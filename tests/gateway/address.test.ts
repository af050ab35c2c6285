import { describe, expect, it } from "vitest";
import { isLoopback, parseListenAddress, requireTokenFor, type GatewayError } from "../../src/gateway/index.js";

describe("--http address and token policy", () => {
  it("parses [host:]port, defaulting to 127.0.0.1", () => {
    expect(parseListenAddress("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseListenAddress("localhost:0")).toEqual({ host: "localhost", port: 0 });
    expect(parseListenAddress("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
    expect(parseListenAddress("0.0.0.0:80")).toEqual({ host: "0.0.0.0", port: 80 });
  });

  it("rejects what is not an address", () => {
    for (const bad of ["", "http://x:1", "host:", "99999", "a b:1"]) {
      expect(() => parseListenAddress(bad)).toThrow(expect.objectContaining({ code: "GATEWAY_BAD_ADDRESS" }));
    }
  });

  it("knows loopback addresses", () => {
    expect(["127.0.0.1", "127.1.2.3", "::1", "localhost"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "192.168.1.2", "::", "example.com"].some(isLoopback)).toBe(false);
  });

  it("requires a bearer token off loopback only", () => {
    expect(() => requireTokenFor({ host: "127.0.0.1", port: 1 }, undefined)).not.toThrow();
    expect(() => requireTokenFor({ host: "0.0.0.0", port: 1 }, "a-long-secret-token")).not.toThrow();
    let error: GatewayError | undefined;
    try {
      requireTokenFor({ host: "0.0.0.0", port: 1 }, "");
    } catch (e) {
      error = e as GatewayError;
    }
    expect(error?.code).toBe("GATEWAY_TOKEN_REQUIRED");
  });
});
