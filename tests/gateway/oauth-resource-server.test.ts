import { createPublicKey } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { runCli } from "../../src/cli/main.js";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { startIdentityProvider, type IdentityProvider } from "./fixtures/identity-provider.js";
import { everythingServer, jsonOf, makeHome, memoryServer, type TestHome } from "./helpers.js";

const TOKEN = "gateway-token-0123456789abcdef";

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * `mcpvm serve --http` as an OAuth 2.1 resource server against a real identity provider
 * (oauth2-mock-server signing JWTs with keys it publishes): the metadata, what a valid token may
 * reach, every kind of bad token refused with the RFC 6750 error, key rotation, and the gateway
 * and client tokens working beside it.
 */
describe("gateway OAuth resource server (access tokens from an identity provider)", () => {
  let idp: IdentityProvider;
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  let clientToken: string;

  const initialize = (token: string | undefined, extraHeaders: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...extraHeaders,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "oauth-test", version: "1" } } }),
    });

  /** The refusal of one request: status, WWW-Authenticate and the JSON-RPC message. */
  const refused = async (token: string | undefined) => {
    const response = await initialize(token);
    const body = (await response.json()) as { error?: { message: string } };
    return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "", message: body.error?.message ?? "", retryAfter: response.headers.get("retry-after") };
  };

  const valid = (claims: Record<string, unknown> = {}, options: { kid?: string; expiresIn?: number } = {}) =>
    idp.token({ sub: "alice", aud: running.url, scope: "openid mcp", groups: ["staff", "memory"], ...claims }, options);

  async function client(token: string): Promise<Client> {
    const c = new Client({ name: "oauth-test", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return c;
  }

  async function toolNames(token: string): Promise<string[]> {
    const c = await client(token);
    try {
      return (await c.listTools()).tools.map((t) => t.name).sort();
    } finally {
      await c.close();
    }
  }

  beforeAll(async () => {
    idp = await startIdentityProvider();
    const memoryDir = await mkdtemp(join(tmpdir(), "mcpvm-gw-memory-"));
    home = await makeHome({
      servers: { everything: everythingServer(), memory: memoryServer(memoryDir) },
      gateway: {
        oauth: {
          issuer: idp.url,
          requiredScopes: ["mcp"],
          jwksCooldownMs: 1_000,
          clients: {
            "memory-team": { match: { groups: "memory" }, servers: ["memory"] },
            "echo-bot": { match: { client_id: "echo-bot" }, toolset: "echo-only" },
            flooder: { match: { sub: "flood" }, rate: "3/s" },
          },
        },
      },
    });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "echo-only", tools: ["everything.echo"] });
    const io = captureIo(home.env);
    expect(await runCli(["gateway", "token", "create", "named"], io), io.stderrText()).toBe(0);
    clientToken = io.stdoutText().trim();
    // Prometheus metrics on: their client label must not carry people's names.
    running = await startGateway({ env: { ...home.env, OTEL_METRICS_EXPORTER: "prometheus" }, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", logFile: "always", pretty: false });
    url = new URL(running.url as string);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await idp?.close();
    await home?.cleanup();
  });

  it("found the key set through the issuer's discovery document at start", () => {
    expect(idp.requests).toContain("/.well-known/openid-configuration");
    expect(idp.jwksFetches()).toBe(1);
  });

  it("publishes RFC 9728 protected resource metadata, path-suffixed and bare, without a token", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await fetch(new URL(path, url));
      expect(response.status, path).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(await response.json()).toEqual({
        resource: running.url,
        authorization_servers: [idp.url],
        bearer_methods_supported: ["header"],
        scopes_supported: ["mcp"],
        resource_name: "mcpvm gateway",
      });
    }
    expect((await fetch(new URL("/.well-known/oauth-protected-resource/other", url))).status).toBe(404);
  });

  it("answers a request without a token with 401 pointing at the metadata, and no error code (RFC 6750 §3.1)", async () => {
    const result = await refused(undefined);
    expect(result.status).toBe(401);
    expect(result.challenge).toBe(`Bearer realm="mcpvm", resource_metadata="${url.origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(result.message).toContain(`access token from ${idp.url}`);
  });

  it("lets a valid token call what its claims allow and nothing else", async () => {
    const token = await valid();
    expect(await toolNames(token)).toEqual(["discover-all-tools", "list_mcp_tools", "run_mcp_script", "search_tools"]);
    const alice = await client(token);
    try {
      const memory = await alice.callTool({ name: "run_mcp_script", arguments: { script: 'const m = require("host:mcp-memory"); return Object.keys(await m.read_graph({}));' } });
      expect(memory.isError, JSON.stringify(memory)).not.toBe(true);
      const everything = await alice.callTool({ name: "run_mcp_script", arguments: { script: 'const e = require("host:mcp-everything"); return await e.echo({ message: "x" });' } });
      expect(everything.isError).toBe(true);
      expect(jsonOf<{ error: { message: string } }>(everything).error.message).toContain("not available to this gateway client");
      const forbidden = await alice.callTool({ name: "build-toolset", arguments: { name: "mine", tools: ["everything.echo"] } });
      expect(JSON.stringify(forbidden)).toContain("GATEWAY_CLIENT_FORBIDDEN");
    } finally {
      await alice.close();
    }
    // Another mapping: a service's token (client_id), limited to a toolset.
    const bot = await idp.token({ sub: "svc-42", client_id: "echo-bot", aud: running.url, scope: "mcp" });
    expect(await toolNames(bot)).toEqual(["discover-all-tools", "everything_echo", "list_mcp_tools", "run_mcp_script", "search_tools"]);
    const c = await client(bot);
    try {
      const echoed = await c.callTool({ name: "everything_echo", arguments: { message: "hi bot" } });
      expect(JSON.stringify(echoed.content)).toContain("hi bot");
    } finally {
      await c.close();
    }
  });

  it("refuses a token for another audience, from another issuer, expired, or not yet valid (401 invalid_token)", async () => {
    const cases: Array<[string, Promise<string>, RegExp]> = [
      ["audience", valid({ aud: "https://other.example.com/mcp" }), /audience "https:\/\/other\.example\.com\/mcp", not this gateway/],
      ["no audience", idp.token({ sub: "alice", scope: "mcp", groups: ["memory"] }), /has no "aud" claim/],
      ["issuer", valid({ iss: "http://127.0.0.1:9/evil" }), /issued by "http:\/\/127\.0\.0\.1:9\/evil", not by this gateway's issuer/],
      ["expired", valid({}, { expiresIn: -120 }), /expired at/],
      ["not yet", valid({ nbf: Math.floor(Date.now() / 1000) + 600 }), /not valid before/],
    ];
    for (const [what, token, reason] of cases) {
      const result = await refused(await token);
      expect(result.status, what).toBe(401);
      expect(result.challenge, what).toContain('error="invalid_token"');
      expect(result.challenge, what).toContain(`resource_metadata="${url.origin}/.well-known/oauth-protected-resource/mcp"`);
      expect(result.message, what).toMatch(reason);
    }
  });

  it("accepts a token expired within the clock leeway", async () => {
    const response = await initialize(await valid({}, { expiresIn: -5 }));
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it("refuses alg none, HS256 signed with the issuer's public key, an unknown kid and a tampered signature", async () => {
    const good = await valid();
    const [header, payload, signature] = good.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;

    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    const publicJwk = idp.issuer.keys.toJSON().find((k) => k.kid === "key-1");
    const publicPem = createPublicKey({ key: publicJwk as never, format: "jwk" }).export({ type: "spki", format: "pem" });
    const confused = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid: "key-1" }).sign(new TextEncoder().encode(String(publicPem)));
    const rogue = await generateKeyPair("RS256");
    const unknownKid = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "rogue-key" }).sign(rogue.privateKey);
    const sameKidOtherKey = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "key-1" }).sign(rogue.privateKey);
    const tampered = `${header}.${b64({ ...claims, groups: ["admins"], sub: "mallory" })}.${signature}`;

    const cases: Array<[string, string, RegExp]> = [
      ["alg none", none, /alg "none", which this gateway does not accept/],
      ["HS256 with the public key", confused, /alg "HS256", which this gateway does not accept/],
      ["unknown kid", unknownKid, /signed with key "rogue-key", which the issuer's key set does not hold/],
      ["another key under the issuer's kid", sameKidOtherKey, /signature does not verify with the issuer's key "key-1"/],
      ["tampered claims", tampered, /signature does not verify/],
      ["not a JWT", "not-a-jwt-and-not-a-gateway-token", /not an access token from the identity provider/],
    ];
    for (const [what, token, reason] of cases) {
      const result = await refused(token);
      expect(result.status, what).toBe(401);
      expect(result.challenge, what).toContain('error="invalid_token"');
      expect(result.message, what).toMatch(reason);
    }
    const malformed = await initialize(undefined, { authorization: "Basic dXNlcjpwYXNz" });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("www-authenticate")).toContain('error="invalid_request"');
  });

  it("answers a missing scope or claims that match no client with 403 insufficient_scope", async () => {
    const noScope = await refused(await valid({ scope: "openid" }));
    expect(noScope.status).toBe(403);
    expect(noScope.challenge).toContain('error="insufficient_scope"');
    expect(noScope.challenge).toContain('scope="mcp openid"');
    expect(noScope.message).toContain("lacks the scope mcp");
    const nobody = await refused(await valid({ groups: ["sales"] }));
    expect(nobody.status).toBe(403);
    expect(nobody.message).toContain("match no client in gateway.oauth.clients");
  });

  it("keeps the gateway token and named client tokens working beside access tokens, and other clients unaffected", async () => {
    const all = await toolNames(TOKEN);
    expect(all).toContain("build-toolset");
    expect(await toolNames(clientToken)).toEqual(all);
    expect(await toolNames(await valid())).toEqual(["discover-all-tools", "list_mcp_tools", "run_mcp_script", "search_tools"]);
  });

  it("keeps a session with its person across token refreshes; another person's token cannot use it", async () => {
    const opened = await initialize(await valid());
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const session = opened.headers.get("mcp-session-id") as string;
    const list = async (token: string) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      await response.body?.cancel();
      return response.status;
    };
    // A refreshed access token: another JWT, the same person.
    expect(await list(await valid())).toBe(200);
    expect(await list(await valid({ sub: "bob" }))).toBe(404);
  });

  it("keeps people apart whose subjects differ only in characters a client name cannot hold", async () => {
    const opened = await initialize(await valid({ sub: "a_b" }));
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const session = opened.headers.get("mcp-session-id") as string;
    const listAs = async (sub: string) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${await valid({ sub })}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      await response.body?.cancel();
      return response.status;
    };
    expect(await listAs("a_b")).toBe(200);
    expect(await listAs("a b")).toBe(404);
    expect(await listAs("a/b")).toBe(404);
  });

  it("rate-limits each person on their own (429), others unaffected", async () => {
    const flood = await Promise.all(Array.from({ length: 10 }, async () => initialize(await idp.token({ sub: "flood", aud: running.url, scope: "mcp" }))));
    const statuses = flood.map((r) => r.status);
    await Promise.all(flood.map((r) => r.body?.cancel()));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10 - 4);
    const others = await Promise.all(Array.from({ length: 6 }, async () => initialize(await valid())));
    expect(others.map((r) => r.status)).toEqual(Array.from({ length: 6 }, () => 200));
    await Promise.all(others.map((r) => r.body?.cancel()));
  });

  it("follows a key rotation: a new kid re-reads the key set, made-up kids do not hammer it", async () => {
    // The new key is an EC one: rotation to another algorithm of the allow-list.
    await idp.issuer.keys.generate("ES256", { kid: "key-2" });
    // The cooldown (1 s here) since the last read must pass before an unknown kid re-reads the set.
    await new Promise((r) => setTimeout(r, 1_200));
    const before = idp.jwksFetches();
    const rotated = await initialize(await valid({}, { kid: "key-2" }));
    expect(rotated.status).toBe(200);
    await rotated.body?.cancel();
    expect(idp.jwksFetches()).toBe(before + 1);
    const rogue = await generateKeyPair("RS256");
    const ghosts = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        refused(await new SignJWT({ sub: "ghost", aud: running.url, iss: idp.url, scope: "mcp", exp: Math.floor(Date.now() / 1000) + 60 }).setProtectedHeader({ alg: "RS256", kid: `ghost-${i}` }).sign(rogue.privateKey)),
      ),
    );
    expect(ghosts.every((g) => g.status === 401)).toBe(true);
    expect(idp.jwksFetches()).toBeLessThanOrEqual(before + 2);
  });

  it("names the token's client and person in every call's log line", async () => {
    const lines = (await readFile(running.logFile as string, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = lines.filter((l) => l.method === "tools/call");
    expect(new Set(calls.map((l) => l.client))).toEqual(new Set(["memory-team/alice", "echo-bot/svc-42"]));
    const refusals = lines.filter((l) => l.msg === "HTTP request without a valid bearer token refused");
    expect(refusals.some((l) => String(l.reason).includes("alg \"none\""))).toBe(true);
    expect(JSON.stringify(lines)).not.toMatch(/eyJ[A-Za-z0-9_-]{20,}\.eyJ/);
  });

  it("attributes upstream calls in the activity log to the token's client and person, scripts' calls too", async () => {
    const file = join(home.dir, "activity.jsonl");
    const records = async () =>
      (await readFile(file, "utf8").catch(() => ""))
        .trim()
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as { server: string; tool: string; client?: string });
    let seen: Array<{ server: string; tool: string; client?: string }> = [];
    for (let i = 0; i < 50 && !(seen.some((r) => r.tool === "read_graph") && seen.some((r) => r.tool === "echo")); i++) {
      seen = await records();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.find((r) => r.server === "memory" && r.tool === "read_graph")?.client).toBe("memory-team/alice");
    expect(seen.find((r) => r.server === "everything" && r.tool === "echo")?.client).toBe("echo-bot/svc-42");
  });

  it("labels metrics by the client entry, never by person (bounded series); spans and logs keep the person", async () => {
    const response = await fetch(new URL("/metrics", url), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/mcpvm_client_name="memory-team"/);
    expect(text).toMatch(/mcpvm_client_name="echo-bot"/);
    expect(text).not.toContain("memory-team/alice");
    expect(text).not.toContain("svc-42");
  });

  it("keeps accepting tokens of known keys while the identity provider is down; an unknown kid is a 503", async () => {
    await idp.close();
    const known = await initialize(await valid());
    expect(known.status).toBe(200);
    await known.body?.cancel();
    await new Promise((r) => setTimeout(r, 1_200));
    const rogue = await generateKeyPair("RS256");
    const unknown = await refused(await new SignJWT({ sub: "alice", aud: running.url, iss: idp.url, scope: "mcp", exp: Math.floor(Date.now() / 1000) + 60 }).setProtectedHeader({ alg: "RS256", kid: "key-3" }).sign(rogue.privateKey));
    expect(unknown.status).toBe(503);
    expect(unknown.retryAfter).toBe("5");
    expect(unknown.message).toContain("key set could not be read");
  });
});
