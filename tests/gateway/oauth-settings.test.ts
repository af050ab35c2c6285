import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { AccessTokenVerifier } from "../../src/gateway/oauth/access-token.js";
import { bearerChallenge, refusal } from "../../src/gateway/clients/authenticate.js";
import { startGateway } from "../../src/gateway/index.js";
import { attributedName, claimMatches, matchClient, principalOf, scopesOf } from "../../src/gateway/oauth/claims.js";
import { IssuerKeys, metadataUrls } from "../../src/gateway/oauth/issuer-keys.js";
import { isMetadataPath, metadataUrlFor, protectedResourceMetadata } from "../../src/gateway/oauth/metadata.js";
import { oauthSettingsSchema } from "../../src/gateway/oauth/settings.js";
import { VerifiedTokenCache } from "../../src/gateway/oauth/token-cache.js";
import { parseGatewaySettings } from "../../src/gateway/settings.js";
import { makeHome } from "./helpers.js";

const ISSUER = "https://idp.example.com/realms/team";

describe("gateway.oauth settings", () => {
  it("fills safe defaults: asymmetric algorithms, 30 s leeway, key-set cooldown", () => {
    const settings = oauthSettingsSchema.parse({ issuer: ISSUER });
    expect(settings.algorithms).toEqual(["RS256", "PS256", "ES256", "EdDSA"]);
    expect(settings.clockToleranceSec).toBe(30);
    expect(settings.jwksCooldownMs).toBe(30_000);
    expect(settings.clients).toEqual({});
    expect(settings.defaultClient).toBeUndefined();
  });

  it("cannot be told to accept alg none or an HMAC algorithm", () => {
    for (const alg of ["none", "HS256", "HS512"]) {
      expect(() => parseGatewaySettings({ oauth: { issuer: ISSUER, algorithms: [alg] } }, "config.json"), alg).toThrow(/gateway\.oauth\.algorithms/);
    }
  });

  it("wants https for the issuer, key set and resource (http only on loopback)", () => {
    expect(() => parseGatewaySettings({ oauth: { issuer: "http://idp.example.com" } }, "config.json")).toThrow(/https:\/\/ URL/);
    expect(() => parseGatewaySettings({ oauth: { issuer: ISSUER, jwksUri: "http://10.0.0.5/jwks" } }, "config.json")).toThrow(/jwksUri/);
    expect(oauthSettingsSchema.parse({ issuer: "http://127.0.0.1:8080", resource: "http://localhost:3000/mcp" }).resource).toBe("http://localhost:3000/mcp");
  });

  it("parses client mappings with their allow-lists and rates, and refuses a mapping without claims", () => {
    const settings = oauthSettingsSchema.parse({
      issuer: ISSUER,
      clients: { ci: { match: { client_id: "ci-bot" }, servers: ["github"], rate: "50/s" } },
      defaultClient: { toolset: "read-only", rate: "600/m" },
    });
    expect(settings.clients.ci?.rate).toEqual({ count: 50, perMs: 1_000 });
    expect(settings.defaultClient?.rate).toEqual({ count: 600, perMs: 60_000 });
    expect(() => oauthSettingsSchema.parse({ issuer: ISSUER, clients: { ci: { match: {} } } })).toThrow(/match names at least one claim/);
    expect(() => oauthSettingsSchema.parse({ issuer: ISSUER, clients: { ci: { match: { sub: "x" }, rate: "lots" } } })).toThrow(/--rate takes/);
    expect(() => oauthSettingsSchema.parse({ issuer: ISSUER, clients: { "bad name": { match: { sub: "x" } } } })).toThrow();
  });

  it("refuses to start off loopback without gateway.oauth.resource (the audience would be a bind address)", async () => {
    const home = await makeHome({ servers: {}, gateway: { oauth: { issuer: "http://127.0.0.1:9" } } });
    try {
      const started = startGateway({ env: home.env, http: { host: "0.0.0.0", port: 0 }, token: "gateway-token-0123456789abcdef", logLevel: "silent", pretty: false });
      await expect(started).rejects.toMatchObject({ code: "GATEWAY_CONFIG_INVALID", message: expect.stringContaining('set "resource" to the URL clients reach this gateway at') });
    } finally {
      await home.cleanup();
    }
  });
});

describe("a gateway whose identity provider is down at start", () => {
  it("starts anyway, answers 503 (Retry-After) to access tokens and 401 with the metadata to requests without one", async () => {
    const home = await makeHome({ servers: {}, gateway: { oauth: { issuer: "http://127.0.0.1:9", httpTimeoutMs: 1_000 } } });
    const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: "gateway-token-0123456789abcdef", logLevel: "silent", pretty: false });
    try {
      const post = (authorization?: string) =>
        fetch(running.url as string, {
          method: "POST",
          headers: { ...(authorization === undefined ? {} : { authorization }), "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
        });
      const jwt = `${Buffer.from('{"alg":"RS256","kid":"k"}').toString("base64url")}.${Buffer.from('{"sub":"a"}').toString("base64url")}.c2ln`;
      const down = await post(`Bearer ${jwt}`);
      expect(down.status).toBe(503);
      expect(down.headers.get("retry-after")).toBe("5");
      expect(((await down.json()) as { error: { message: string } }).error.message).toContain("identity provider cannot be reached");
      const anonymous = await post();
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toContain(`resource_metadata="${new URL(running.url as string).origin}/.well-known/oauth-protected-resource/mcp"`);
      await anonymous.body?.cancel();
      const admin = await post("Bearer gateway-token-0123456789abcdef");
      expect(admin.status).toBe(200);
      await admin.body?.cancel();
    } finally {
      await running.close();
      await home.cleanup();
    }
  });
});

describe("claims → client", () => {
  const settings = oauthSettingsSchema.parse({
    issuer: ISSUER,
    clients: {
      admins: { match: { "realm_access.roles": "mcp-admin" } },
      ci: { match: { client_id: "ci-bot", scope: "mcp:write" }, servers: ["github"] },
      data: { match: { groups: ["data", "analytics"] }, toolset: "analysis", rate: "5/s" },
    },
  });

  it("reads scopes from scope or scp", () => {
    expect(scopesOf({ scope: "openid  mcp:read" })).toEqual(["openid", "mcp:read"]);
    expect(scopesOf({ scp: ["a", "b"], scope: "b c" })).toEqual(["b", "c", "a"]);
    expect(scopesOf({})).toEqual([]);
  });

  it("matches strings, arrays, dotted paths and scopes", () => {
    expect(claimMatches({ groups: ["x", "data"] }, "groups", ["data"])).toBe(true);
    expect(claimMatches({ groups: "data" }, "groups", "data")).toBe(true);
    expect(claimMatches({ groups: ["database"] }, "groups", "data")).toBe(false);
    expect(claimMatches({ realm_access: { roles: ["mcp-admin"] } }, "realm_access.roles", "mcp-admin")).toBe(true);
    expect(claimMatches({ "https://example.com/roles": ["a"] }, "https://example.com/roles", "a")).toBe(true);
    expect(claimMatches({ scope: "openid mcp:write" }, "scope", "mcp:write")).toBe(true);
    expect(claimMatches({ scope: "openid mcp:writer" }, "scope", "mcp:write")).toBe(false);
    expect(claimMatches({ admin: true }, "admin", "true")).toBe(true);
    expect(claimMatches({}, "groups", "data")).toBe(false);
  });

  it("takes the first mapping whose claims all match, names the person, else the default or nothing", () => {
    expect(matchClient(settings, { sub: "ann", realm_access: { roles: ["mcp-admin"] }, groups: ["data"] })).toEqual({ scope: { name: "admins/ann", via: "oauth", subject: "ann" } });
    expect(matchClient(settings, { sub: "svc", client_id: "ci-bot", scope: "mcp:write" })).toEqual({ scope: { name: "ci/svc", via: "oauth", subject: "svc", servers: ["github"] } });
    // client_id alone is not enough: the mapping also wants the scope.
    expect(matchClient(settings, { sub: "svc", client_id: "ci-bot", scope: "mcp:read" })).toEqual({ unmatched: true });
    expect(matchClient(settings, { sub: "bo", groups: ["analytics"] })).toEqual({
      scope: { name: "data/bo", via: "oauth", subject: "bo", toolset: "analysis", rate: { count: 5, perMs: 1_000 } },
    });
    expect(matchClient({ ...settings, defaultClient: { servers: ["docs"] } }, { sub: "zed" })).toEqual({ scope: { name: "oauth/zed", via: "oauth", subject: "zed", servers: ["docs"] } });
  });

  it("attributes to sub, else client_id or azp; unsafe characters and long subjects are made safe", () => {
    expect(principalOf({ sub: "u1", client_id: "c" })).toBe("u1");
    expect(principalOf({ client_id: "c" })).toBe("c");
    expect(principalOf({ azp: "a" })).toBe("a");
    expect(principalOf({})).toBeUndefined();
    expect(attributedName("team", "alice@example.com")).toBe("team/alice@example.com");
    expect(attributedName("team", "evil\nname \u202e")).toMatch(/^team\/evil_name__~[0-9a-f]{12}$/);
    // Two subjects that read the same once made safe are still two people.
    expect(attributedName("team", "a b")).not.toBe(attributedName("team", "a_b"));
    expect(attributedName("team", "a_b")).toBe("team/a_b");
    const long = attributedName("team", "x".repeat(300));
    expect(long).toMatch(/^team\/sha256-[0-9a-f]{32}$/);
    expect(attributedName("team", undefined)).toBe("team");
  });
});

describe("protected resource metadata and challenges", () => {
  it("places the metadata as RFC 9728 says, for the public resource URL and /mcp", () => {
    expect(metadataUrlFor("https://mcp.example.com/mcp")).toBe("https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
    expect(metadataUrlFor("https://mcp.example.com/")).toBe("https://mcp.example.com/.well-known/oauth-protected-resource");
    expect(isMetadataPath("/.well-known/oauth-protected-resource/team/mcp", "https://x.example.com/team/mcp")).toBe(true);
    expect(isMetadataPath("/.well-known/oauth-protected-resource/mcp", "https://x.example.com/team/mcp")).toBe(true);
    expect(isMetadataPath("/.well-known/oauth-protected-resource", "https://x.example.com/team/mcp")).toBe(true);
    expect(isMetadataPath("/.well-known/oauth-protected-resource/other", "https://x.example.com/team/mcp")).toBe(false);
    const settings = oauthSettingsSchema.parse({ issuer: ISSUER, requiredScopes: ["mcp"], scopesSupported: ["mcp", "mcp:admin"], resourceName: "Team tools" });
    expect(protectedResourceMetadata(settings, "https://mcp.example.com/mcp")).toEqual({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: [ISSUER],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp", "mcp:admin"],
      resource_name: "Team tools",
    });
  });

  it("looks for the issuer's metadata where RFC 8414 and OpenID Discovery put it", () => {
    expect(metadataUrls(ISSUER).map((u) => u.href)).toEqual([
      "https://idp.example.com/.well-known/oauth-authorization-server/realms/team",
      "https://idp.example.com/.well-known/openid-configuration/realms/team",
      "https://idp.example.com/realms/team/.well-known/openid-configuration",
    ]);
    expect(metadataUrls("https://idp.example.com/").map((u) => u.href)).toEqual([
      "https://idp.example.com/.well-known/oauth-authorization-server",
      "https://idp.example.com/.well-known/openid-configuration",
    ]);
  });

  it("writes RFC 6750 challenges: no error without credentials, quotes kept out of quoted strings", () => {
    expect(bearerChallenge(refusal(401, "no bearer token"), { resource_metadata: "https://m/x" })).toBe('Bearer realm="mcpvm", resource_metadata="https://m/x"');
    expect(bearerChallenge(refusal(403, 'lacks "mcp"\\', "insufficient_scope", "mcp openid"))).toBe(`Bearer realm="mcpvm", error="insufficient_scope", error_description="lacks 'mcp''", scope="mcp openid"`);
  });
});

describe("the cache of accepted tokens", () => {
  it("answers a repeated token until it expires or the age limit, whichever is first", () => {
    let now = 1_000_000;
    const cache = new VerifiedTokenCache<string>({ maxEntries: 10, maxAgeMs: 60_000 }, () => now);
    cache.set("token-a", "alice", now + 10_000);
    cache.set("token-b", "bob", now + 3_600_000);
    expect(cache.get("token-a")).toBe("alice");
    expect(cache.get("token-c")).toBeUndefined();
    now += 10_000;
    expect(cache.get("token-a")).toBeUndefined();
    expect(cache.get("token-b")).toBe("bob");
    now += 50_000;
    expect(cache.get("token-b")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps nothing already expired, nothing with 0 entries, and forgets the oldest past its size", () => {
    const now = 5_000;
    const cache = new VerifiedTokenCache<number>({ maxEntries: 3, maxAgeMs: 60_000 }, () => now);
    cache.set("late", 0, now - 1);
    expect(cache.size).toBe(0);
    for (let i = 1; i <= 5; i++) cache.set(`t${i}`, i, now + 60_000);
    expect(cache.size).toBe(3);
    expect([cache.get("t1"), cache.get("t2"), cache.get("t3"), cache.get("t5")]).toEqual([undefined, undefined, 3, 5]);
    const off = new VerifiedTokenCache<number>({ maxEntries: 0, maxAgeMs: 60_000 }, () => now);
    off.set("t", 1, now + 1_000);
    expect(off.get("t")).toBeUndefined();
  });
});

describe("tokenType (RFC 9068 typ)", () => {
  it("refuses a token of the same provider whose typ is not the access-token type (an ID token), when asked to", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] });
    const settings = oauthSettingsSchema.parse({ issuer: ISSUER, tokenType: "at+jwt", defaultClient: {} });
    const verifier = new AccessTokenVerifier(settings, keys, () => ["https://mcp.example.com/mcp"]);
    const sign = (typ: string | undefined) =>
      new SignJWT({ sub: "ann", aud: "https://mcp.example.com/mcp" })
        .setProtectedHeader({ alg: "ES256", kid: "k1", ...(typ === undefined ? {} : { typ }) })
        .setIssuer(ISSUER)
        .setExpirationTime("5m")
        .sign(privateKey);
    expect(await verifier.verify(await sign("application/at+JWT"))).toMatchObject({ scope: { name: "oauth/ann" } });
    expect(await verifier.verify(await sign("at+jwt"))).toMatchObject({ scope: { name: "oauth/ann" } });
    expect(await verifier.verify(await sign("JWT"))).toMatchObject({ refused: true, status: 401, error: "invalid_token", description: expect.stringContaining('typ is "JWT", not "at+jwt"') });
    expect(await verifier.verify(await sign(undefined))).toMatchObject({ refused: true, status: 401 });
    // Unset (the default): typ is not looked at.
    const lenient = new AccessTokenVerifier(oauthSettingsSchema.parse({ issuer: ISSUER, defaultClient: {} }), keys, () => ["https://mcp.example.com/mcp"]);
    expect(await lenient.verify(await sign("JWT"))).toMatchObject({ scope: { name: "oauth/ann" } });
  });
});

describe("a key set that cannot be read", () => {
  it("is asked again at most every few seconds, however many tokens with unknown kids arrive", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(500).end("down");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      let now = 1_000_000;
      const settings = oauthSettingsSchema.parse({ issuer: "http://127.0.0.1:9", jwksUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, jwksCooldownMs: 0 });
      const keys = new IssuerKeys(settings, () => now);
      const verifier = new AccessTokenVerifier(settings, keys.getKey, () => ["https://mcp.example.com/mcp"]);
      const token = (kid: string) => `${Buffer.from(JSON.stringify({ alg: "RS256", kid })).toString("base64url")}.${Buffer.from("{}").toString("base64url")}.c2ln`;
      const first = await verifier.verify(token("a"));
      expect(first).toMatchObject({ refused: true, status: 503 });
      expect(requests).toBe(1);
      for (let i = 0; i < 10; i++) expect(await verifier.verify(token(`k${i}`))).toMatchObject({ refused: true, status: 503, description: expect.stringContaining("could not be read") });
      expect(requests).toBe(1);
      now += 6_000;
      expect(await verifier.verify(token("b"))).toMatchObject({ refused: true, status: 503 });
      expect(requests).toBe(2);
    } finally {
      server.close();
    }
  });
});
