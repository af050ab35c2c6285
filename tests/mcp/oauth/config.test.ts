import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { approvalHash, canonicalApprovalEncoding } from "../../../src/mcp/approval/index.js";
import { mcpServerEntrySchema } from "../../../src/mcp/config/schema.js";
import { parseImportText } from "../../../src/mcp/config/import/parse.js";
import { approvalSubject } from "../../../src/mcp/service/index.js";
import { OAuthLogins, OAuthTokenStore } from "../../../src/mcp/oauth/index.js";
import { parsePastedRedirect, RedirectListener } from "../../../src/mcp/oauth/redirect-listener.js";
import { loginSubject } from "../../../src/mcp/oauth/identity.js";
import { boundOAuthResponses } from "../../../src/mcp/oauth/bounded-fetch.js";

const entry = (raw: unknown) => mcpServerEntrySchema.parse(raw);

describe("the oauth block", () => {
  it("is for http and sse servers only, in Claude Code's shape", () => {
    expect(entry({ url: "https://x.example.com/mcp", oauth: { clientId: "abc", callbackPort: 8080 } }).oauth).toEqual({ clientId: "abc", callbackPort: 8080 });
    const stdio = mcpServerEntrySchema.safeParse({ command: "node", oauth: { clientId: "abc" } });
    expect(stdio.success).toBe(false);
    expect(JSON.stringify(stdio.error?.issues)).toContain("applies to http and sse servers only");
    expect(mcpServerEntrySchema.safeParse({ url: "https://x.example.com/mcp", oauth: { clientSecret: "s" } }).success).toBe(false);
    expect(mcpServerEntrySchema.safeParse({ url: "https://x.example.com/mcp", oauth: { clientMetadataUrl: "http://x.example.com/cimd.json" } }).success).toBe(false);
    expect(mcpServerEntrySchema.safeParse({ url: "https://x.example.com/mcp", oauth: { clientIdd: "typo" } }).success).toBe(false);
  });

  it("is covered by approval: a changed client id or scope needs re-approval; the secret only by digest; no block, same hash as before", () => {
    const base = { url: "https://x.example.com/mcp" };
    const without = approvalHash(approvalSubject("x", entry(base)));
    const withId = approvalHash(approvalSubject("x", entry({ ...base, oauth: { clientId: "a" } })));
    expect(withId).not.toBe(without);
    expect(approvalHash(approvalSubject("x", entry({ ...base, oauth: { clientId: "b" } })))).not.toBe(withId);
    expect(approvalHash(approvalSubject("x", entry({ ...base, oauth: { clientId: "a", scopes: ["read", "write"] } })))).not.toBe(withId);
    const secret = canonicalApprovalEncoding(approvalSubject("x", entry({ ...base, oauth: { clientId: "a", clientSecret: "s3cr3t-value" } })));
    expect(secret).not.toContain("s3cr3t-value");
    // Pre-existing approvals of servers without an oauth block stay valid.
    expect(canonicalApprovalEncoding(approvalSubject("x", entry(base)))).not.toContain("oauth");
  });

  it("client_credentials: a client id and exactly one credential, given as a reference (never in clear), no browser settings", () => {
    const base = { url: "https://x.example.com/mcp" };
    const issues = (oauth: unknown) => (mcpServerEntrySchema.safeParse({ ...base, oauth }).error?.issues ?? []).map((issue) => issue.message).join("\n");
    expect(entry({ ...base, oauth: { grant: "client_credentials", clientId: "ci", clientSecret: "${CI_SECRET}" } }).oauth).toEqual({ grant: "client_credentials", clientId: "ci", clientSecret: "${CI_SECRET}" });
    expect(entry({ ...base, oauth: { grant: "client_credentials", clientId: "ci", privateKey: "${CI_KEY}", signingAlgorithm: "ES256", issuer: "https://as.example.com" } }).oauth?.privateKey).toBe("${CI_KEY}");
    expect(issues({ grant: "client_credentials", clientId: "ci", clientSecret: "s3cr3t" })).toContain('"clientSecret" must be a reference such as "${MCP_CLIENT_SECRET}"');
    expect(issues({ grant: "client_credentials", clientId: "ci", clientSecret: "prefix-${CI_SECRET}" })).toContain("must be a reference");
    expect(issues({ grant: "client_credentials", clientSecret: "${S}" })).toContain('needs the "clientId"');
    expect(issues({ grant: "client_credentials", clientId: "ci" })).toContain("exactly one of");
    expect(issues({ grant: "client_credentials", clientId: "ci", clientSecret: "${S}", privateKey: "${K}" })).toContain("exactly one of");
    expect(issues({ grant: "client_credentials", clientId: "ci", clientSecret: "${S}", callbackPort: 8080 })).toContain("is for browser logins");
    expect(issues({ clientId: "ci", privateKey: "${K}" })).toContain('"privateKey" is a setting of "grant": "client_credentials"');
    expect(issues({ grant: "client_credentials", clientId: "ci", privateKey: "${K}", signingAlgorithm: "HS256" })).toContain('expected one of "RS256"');
  });

  it("client_credentials is covered by approval (grant, key by digest, issuer); browser-login definitions keep their hash", () => {
    const base = { url: "https://x.example.com/mcp" };
    const hash = (oauth: unknown) => approvalHash(approvalSubject("x", entry({ ...base, oauth })));
    const secret = hash({ grant: "client_credentials", clientId: "ci", clientSecret: "${S}" });
    expect(secret).not.toBe(hash({ clientId: "ci", clientSecret: "${S}" }));
    const key = hash({ grant: "client_credentials", clientId: "ci", privateKey: "${K}" });
    expect(key).not.toBe(hash({ grant: "client_credentials", clientId: "ci", privateKey: "${OTHER}" }));
    expect(key).not.toBe(hash({ grant: "client_credentials", clientId: "ci", privateKey: "${K}", issuer: "https://as.example.com" }));
    expect(canonicalApprovalEncoding(approvalSubject("x", entry({ ...base, oauth: { clientId: "a", scopes: "read" } })))).not.toContain("grant");
  });

  it("imports from a Claude Code .mcp.json as it is", () => {
    const text = JSON.stringify({ mcpServers: { linear: { type: "http", url: "https://mcp.linear.app/mcp", oauth: { clientId: "my-client", callbackPort: 33418 } } } });
    const report = parseImportText(".mcp.json", text, { nativePluginNames: [] });
    expect(report.servers.linear).toMatchObject({ type: "http", url: "https://mcp.linear.app/mcp", oauth: { clientId: "my-client", callbackPort: 33418 } });
    expect(report.warnings).toEqual([]);
  });
});

describe("logins", () => {
  it("are bound to the URL and client id they were made for", async () => {
    const home = await mkdtemp(join(tmpdir(), "mcpvm-oauth-store-"));
    try {
      const store = new OAuthTokenStore(join(home, "oauth-tokens.json"));
      await store.update("x", () => ({ url: "https://x.example.com/mcp", clientId: "a", tokens: { access_token: "t", token_type: "Bearer", obtainedAt: 1, expiresAt: Date.now() + 60_000, refresh_token: "r" } }));
      expect((await stat(store.file)).mode & 0o777).toBe(0o600);
      const logins = new OAuthLogins(store, () => undefined);
      expect((await logins.status("x", { url: "https://x.example.com/mcp", clientId: "a" })).state).toBe("valid");
      expect((await logins.status("x", { url: "https://elsewhere.example.com/mcp", clientId: "a" })).state).toBe("none");
      expect((await logins.status("x", { url: "https://x.example.com/mcp", clientId: "b" })).state).toBe("none");
      expect(await logins.logout("x", undefined)).toBe("unsupported");
      expect(await store.get("x")).toBeUndefined();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("take a pasted redirect only when it goes to the loopback listener", () => {
    expect(parsePastedRedirect("x", "http://127.0.0.1:4000/callback?code=c&state=s", 4000).get("code")).toBe("c");
    expect(() => parsePastedRedirect("x", "https://evil.example.com/callback?code=c", 4000)).toThrow(expect.objectContaining({ code: "MCP_OAUTH_INSECURE" }));
    expect(() => parsePastedRedirect("x", "http://127.0.0.1:4001/callback?code=c", 4000)).toThrow(expect.objectContaining({ code: "MCP_OAUTH_FAILED" }));
    expect(() => parsePastedRedirect("x", "not a url", 4000)).toThrow(expect.objectContaining({ code: "MCP_OAUTH_FAILED" }));
  });

  it("wait for a redirect that comes after the wait began: an earlier one (a reloaded tab of the last login) is not this login's", async () => {
    const listener = await RedirectListener.listen("x", 0);
    try {
      const stale = await fetch(`${listener.redirectUri}?code=old&state=old`);
      expect([stale.status, await stale.text()]).toEqual([400, expect.stringContaining("No login in progress")]);
      const waiting = listener.next();
      await fetch(`${listener.redirectUri}?code=new&state=new`);
      expect((await waiting).get("code")).toBe("new");
    } finally {
      await listener.close();
    }
  });

  it("cap OAuth answers at 1 MiB, but not MCP traffic (an event stream, also from a redirected endpoint)", async () => {
    const http = createServer((_req, res) => res.writeHead(200, { "content-type": "text/event-stream" }).end("a".repeat(2 * 1024 * 1024)));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const bounded = boundOAuthResponses(fetch, "x", `${base}/mcp`);
      const stream = await bounded(`${base}/mcp/`, { headers: { accept: "application/json, text/event-stream" } });
      expect((await stream.text()).length).toBe(2 * 1024 * 1024);
      expect((await (await bounded(`${base}/mcp`)).text()).length).toBe(2 * 1024 * 1024);
      const refused = await bounded(`${base}/.well-known/oauth-authorization-server`).catch((error: unknown) => error);
      expect((refused as Error).cause).toMatchObject({ code: "MCP_OAUTH_FAILED" });
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });

  it("name the account from the id token, for display only", () => {
    const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;
    expect(loginSubject({ access_token: "opaque", id_token: jwt({ sub: "123", email: "ada@example.com" }) })).toBe("ada@example.com");
    expect(loginSubject({ access_token: jwt({ sub: "johndoe" }) })).toBe("johndoe");
    expect(loginSubject({ access_token: "opaque" })).toBeUndefined();
  });
});
