import { describe, expect, it } from "vitest";
import { checkUrl, hostAllowed, parseHostPattern, type HostPattern } from "../../plugins/fetch/host-policy.js";

function patterns(...entries: string[]): HostPattern[] {
  return entries.map((entry) => {
    const pattern = parseHostPattern(entry);
    if (pattern === undefined) throw new Error(`bad pattern ${entry}`);
    return pattern;
  });
}

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("allowDomains patterns", () => {
  it("parses exact hosts, wildcards and IP literals into canonical form", () => {
    expect(parseHostPattern("API.Example.com")).toEqual({ exact: "api.example.com" });
    expect(parseHostPattern("example.com.")).toEqual({ exact: "example.com" });
    expect(parseHostPattern("*.example.com")).toEqual({ suffix: ".example.com" });
    expect(parseHostPattern("bücher.de")).toEqual({ exact: "xn--bcher-kva.de" });
    expect(parseHostPattern("::1")).toEqual({ exact: "::1" });
    expect(parseHostPattern("[::ffff:127.0.0.1]")).toEqual({ exact: "::ffff:7f00:1" });
  });

  it("rejects entries that are not hosts", () => {
    for (const entry of ["", "*", "*.", "http://example.com", "example.com/path", "user@example.com", "example.com:8080", "a*.example.com", "*.10.0.0.1"]) {
      expect(parseHostPattern(entry), entry).toBeUndefined();
    }
  });

  it("matches a wildcard against subdomains only, never look-alikes or the apex", () => {
    const list = patterns("*.example.com");
    expect(hostAllowed(list, "api.example.com")).toBe(true);
    expect(hostAllowed(list, "a.b.example.com")).toBe(true);
    expect(hostAllowed(list, "example.com")).toBe(false);
    expect(hostAllowed(list, "evilexample.com")).toBe(false);
    expect(hostAllowed(list, "example.com.evil.net")).toBe(false);
  });
});

describe("checkUrl", () => {
  const list = patterns("example.com", "*.example.org");

  it("accepts http and https URLs on the allowlist and returns the parsed URL", () => {
    expect(checkUrl("https://example.com/a?b=1", list).href).toBe("https://example.com/a?b=1");
    expect(checkUrl("http://EXAMPLE.com./x", list).pathname).toBe("/x");
    expect(checkUrl("https://api.example.org/", list).hostname).toBe("api.example.org");
  });

  it("refuses other protocols", () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/", "data:text/plain,hi", "javascript:alert(1)"]) {
      expect(codeOf(() => checkUrl(url, list)), url).toBe("FETCH_PROTOCOL_NOT_ALLOWED");
    }
  });

  it("refuses hosts off the allowlist, including numeric spellings of addresses", () => {
    for (const url of ["https://example.net/", "https://sub.example.com/", "http://2130706433/", "http://0x7f.1/"]) {
      expect(codeOf(() => checkUrl(url, list)), url).toBe("FETCH_DOMAIN_NOT_ALLOWED");
    }
  });

  it("refuses relative URLs and credentials in URLs", () => {
    expect(codeOf(() => checkUrl("/relative", list))).toBe("FETCH_INVALID_URL");
    expect(codeOf(() => checkUrl("https://user:pw@example.com/", list))).toBe("FETCH_INVALID_URL");
  });

  it("resolves redirect targets against the current URL and reports bad ones as FETCH_BAD_REDIRECT", () => {
    const base = new URL("https://example.com/a/b");
    expect(checkUrl("../c", list, base).href).toBe("https://example.com/c");
    expect(codeOf(() => checkUrl("http://[bad", list, base))).toBe("FETCH_BAD_REDIRECT");
  });
});
