import { describe, expect, it } from "vitest";
import { configuredValueVerdict, isLikelySecret, isMaskedValue, maskedParts, weakness } from "../../../src/mcp/config/secret-values.js";

describe("isLikelySecret: which configured values are masked everywhere", () => {
  it.each([
    ["GITHUB_TOKEN", "ghp_abc"],
    ["Authorization", "Bearer xyz123"],
    ["X-Api-Key", "abcd"],
    ["DB_PASSWORD", "hunter2"],
    ["DATABASE_URL", "postgres://app:s3cret@db.internal:5432/app"],
    ["SOME_VALUE", "a8f3kq29dk3mz0qp7x"],
  ])("%s=%s is a secret", (name, value) => {
    expect(isLikelySecret(name, value)).toBe(true);
  });

  it.each([
    ["LOG_FORMAT", "text"],
    ["DEBUG", "true"],
    ["MODE", "production"],
    ["Accept", "application/json"],
    ["ROOT", "/home/me/projects/2026"],
    ["HOST", "mcp.example.com"],
    ["ENDPOINT", "https://api.example.com/v1"],
    ["API_KEY", "abc"],
  ])("%s=%s is not (masking it would break tools and logs)", (name, value) => {
    expect(isLikelySecret(name, value)).toBe(false);
  });
});

describe("isMaskedValue: every configured env and header value is masked by value, except public ones", () => {
  it.each([
    // The canaries: none of them announces itself by shape.
    ["DB_PASS", "hunter2hunter"],
    ["PASSPHRASE", "correct horse battery staple"],
    ["SMTP_PASS", "Tr0ub4dor&3"],
    ["NOTIFY_URL", "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/q8XyZ3kLmN4pQrStUvWxYz12"],
    ["PIN", "482915"],
    // A name that says nothing, a value that is not a token: still a secret.
    ["RELAY", "blue whale 42"],
    ["ACCOUNT", "acme-7corp"],
    ["PORT", "8080"],
    ["API_BASE", "https://api.example.com/v1?key=abc"],
    ["HOOK_HOST", "a8f3kq29dk3mz0qp7x.example.com"],
    // A secret name wins over a public shape.
    ["DB_PASSWORD", "sunshine"],
    ["AUTH_MODE", "oauth"],
    ["X-Api-Key", "abcd"],
  ])("%s=%s is masked", (name, value) => {
    expect(isMaskedValue(name, value)).toBe(true);
  });

  it.each([
    // What commit c6a5067 fixed: masking these everywhere broke tool schemas, results and logs.
    ["LOG_FORMAT", "text"],
    ["DEBUG", "true"],
    ["MODE", "production"],
    ["ROOT", "/home/me/projects/2026"],
    ["HOST", "mcp.example.com"],
    ["ENDPOINT", "https://api.example.com/v1"],
    ["API_KEY", "abc"],
    ["LEVEL", "INFO"],
    ["BIND", "127.0.0.1:8080"],
    ["UPSTREAM", "localhost:3000"],
    ["ACCESS", "read-only"],
    ["NOTION_VERSION", "2022-06-28"],
    ["RELEASE", "v1.4.2"],
    // The public allowlist, whatever the value looks like.
    ["PATH", "/usr/bin:/bin"],
    ["HOME", "/home/u"],
    ["LANG", "en_GB.UTF-8"],
    ["LC_ALL", "C.UTF-8"],
    ["TERM", "xterm-256color"],
    ["TZ", "Europe/Berlin"],
    ["USER", "u8812x"],
    ["SHELL", "/bin/bash"],
    ["TMPDIR", "/tmp"],
    ["NODE_ENV", "production"],
    ["NODE_EXTRA_CA_CERTS", "/etc/ssl/corp.pem"],
    ["APPDATA", "C:\\Users\\u\\AppData\\Roaming"],
    ["USERPROFILE", "C:\\Users\\u8812x"],
    ["LANGUAGE", "en_GB:en"],
    ["COLORTERM", "truecolor"],
    ["PWD", "/work/x 2"],
    ["HOSTNAME", "build-7f3a9c2e"],
    ["SSL_CERT_FILE", "/etc/ssl/cert.pem"],
  ])("%s=%s is not masked", (name, value) => {
    expect(isMaskedValue(name, value)).toBe(false);
  });

  it("decides headers by their own allowlist", () => {
    for (const name of ["Accept", "accept-encoding", "Accept-Language", "Content-Type", "User-Agent", "MCP-Protocol-Version"]) {
      expect(isMaskedValue(name, "gzip, x7 9q", "header"), name).toBe(false);
    }
    expect(isMaskedValue("Accept", "application/json", "header")).toBe(false);
    expect(isMaskedValue("User-Agent", "my-client/1.2 (linux)", "header")).toBe(false);
    expect(isMaskedValue("X-Account", "blue whale 42", "header")).toBe(true);
    expect(isMaskedValue("Authorization", "Basic dXNlcjpwYXNz", "header")).toBe(true);
    // PATH is public as an env variable, not as a header.
    expect(isMaskedValue("PATH", "blue whale 42", "header")).toBe(true);
  });

  it("says why", () => {
    expect(configuredValueVerdict("PIN", "482915")).toEqual({ masked: true, why: "secret-name" });
    expect(configuredValueVerdict("DATABASE_URL", "postgres://app:s3cret@db/app")).toEqual({ masked: true, why: "credentials-url" });
    expect(configuredValueVerdict("RELAY", "blue whale 42")).toEqual({ masked: true, why: "any-value" });
    expect(configuredValueVerdict("LOG_FORMAT", "text")).toEqual({ masked: false, why: "public-shape" });
    expect(configuredValueVerdict("HOME", "x8x8x8x8x8")).toEqual({ masked: false, why: "public-name" });
    expect(configuredValueVerdict("PIN", "123")).toEqual({ masked: false, why: "too-short" });
  });
});

describe("weakness: values masking cannot keep from guest code that guesses", () => {
  it.each([
    ["PIN", "482915", "digits"],
    ["PORT", "8080", "digits"],
    ["DB_PASS", "hunter2", "short"],
    ["DB_PASSWORD", "sunshine", "word"],
    ["PIN", "123", "unmasked"],
  ] as const)("%s=%s is %s", (name, value, expected) => {
    expect(weakness(name, value)).toBe(expected);
  });

  it.each([
    ["DB_PASS", "hunter2hunter"],
    ["PASSPHRASE", "correct horse battery staple"],
    ["LOG_FORMAT", "text"],
    ["MODE", "ci"],
    ["HOME", "/h"],
  ])("%s=%s is not weak (long enough, or not a secret)", (name, value) => {
    expect(weakness(name, value)).toBeUndefined();
  });
});

describe("maskedParts: what the redactor masks for one secret value", () => {
  it("adds the credential of an authorization-scheme value, which shows up alone too", () => {
    expect(maskedParts("Bearer k-1234567")).toEqual(["Bearer k-1234567", "k-1234567"]);
    expect(maskedParts("Basic dXNlcjpwYXNz")).toEqual(["Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"]);
  });

  it("adds the credentials inside a URL and a JSON object, which a server may echo alone", () => {
    const hook = "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/q8XyZ3kLmN4pQrStUvWxYz12";
    expect(maskedParts(hook)).toEqual([hook, "T0ABCDEF1", "B0ABCDEF2", "q8XyZ3kLmN4pQrStUvWxYz12"]);
    expect(maskedParts("postgres://app:s3cret%21@db/app?sslmode=require&api_key=abcd")).toEqual(["postgres://app:s3cret%21@db/app?sslmode=require&api_key=abcd", "s3cret!", "abcd"]);
    const headers = '{"Authorization": "Bearer ntn_4829155abcdef", "Notion-Version": "2022-06-28", "Accept": "application/json"}';
    expect(maskedParts(headers)).toEqual([headers, "Bearer ntn_4829155abcdef", "ntn_4829155abcdef"]);
  });

  it("does not split other values into words, which are ordinary text elsewhere", () => {
    expect(maskedParts("correct horse battery staplers")).toEqual(["correct horse battery staplers"]);
    expect(maskedParts("--mode list-changed --latency 5")).toEqual(["--mode list-changed --latency 5"]);
  });
});
