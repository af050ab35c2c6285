import { generateKeyPairSync } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpvmHost } from "../../../src/host/index.js";
import { cli, start, stop, stored, type Fixture } from "./cc-fixture.js";

const SECRET = "cc-secret-7f3a9d2e41b8";
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
// SEC1 ("BEGIN EC PRIVATE KEY"), as openssl ecparam writes it: mcpvm converts it to the PKCS#8 the SDK signs with.
const EC_PRIVATE = ec.privateKey.export({ type: "sec1", format: "pem" }) as string;
const EC_PUBLIC = ec.publicKey.export({ type: "spki", format: "pem" }) as string;

/**
 * The client credentials grant against a real authorization server (client-credentials-as.ts: it
 * checks the client's authentication and refuses otherwise) and a real MCP server that checks JWT
 * access tokens: no browser, nobody at a terminal.
 */
describe("OAuth client credentials grant (no browser)", () => {
  describe("client_secret_basic, the secret from ${VAR}", () => {
    let f: Fixture;
    beforeAll(async () => {
      f = await start({ grant: "client_credentials", clientId: "ci-runner", clientSecret: "${CI_MCP_SECRET}", scopes: "notes:read" }, { CI_MCP_SECRET: SECRET }, { clientId: "ci-runner", secret: SECRET });
    }, 60_000);
    afterAll(() => stop(f));

    it("a call gets a token unattended, stored like a login, and nothing shows the secret or the token", async () => {
      const approve = f.approve ?? { code: -1, out: "", err: "" };
      expect(approve.code, approve.err).toBe(0);
      expect(approve.err).toContain("oauth:   client credentials grant (no browser), client id ci-runner, client secret ${CI_MCP_SECRET}, scopes notes:read");
      // The approval's connect fetched a token; the call (another process's worth of state: read from the file) reuses it.
      const call = await cli(f, "mcp", "call", "notes", "whoami");
      expect(call.code, call.err).toBe(0);
      expect(call.out).toContain("hello ci-runner");
      expect(f.as.requests).toEqual([{ grant: "client_credentials", client: "ci-runner", method: "client_secret_basic" }]);
      expect(f.mcp.acceptedTokens).toEqual([f.as.issued[0]]);
      const record = (await stored(f)).servers.notes;
      expect(record).toMatchObject({ url: f.mcp.url, clientId: "ci-runner", client: { issuer: f.as.issuer }, tokens: { access_token: f.as.issued[0] } });
      expect((await stat(join(f.home, "oauth-tokens.json"))).mode & 0o777).toBe(0o600);
      const list = await cli(f, "--json", "mcp", "list");
      expect(list.code, list.err).toBe(0);
      const doctor = await cli(f, "--json", "doctor");
      for (const text of [call.out, call.err, list.out, list.err, approve.out, approve.err, doctor.out, doctor.err]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(f.as.issued[0]);
      }
      // Every file mcpvm wrote (config, audit log, logs, state) but the token store holds neither.
      const files = (await readdir(f.home, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && e.name !== "oauth-tokens.json");
      expect(files.length).toBeGreaterThan(2);
      for (const file of files) {
        const text = await readFile(join(file.parentPath, file.name), "utf8");
        expect(text, file.name).not.toContain(SECRET);
        expect(text, file.name).not.toContain(f.as.issued[0]);
      }
    });

    it("`mcp login` fetches a new token at once (no browser), and `mcp list` shows its expiry", async () => {
      const before = f.as.issued.length;
      const login = await cli(f, "mcp", "login", "notes");
      expect(login.code, login.err).toBe(0);
      expect(f.as.issued.length).toBe(before + 1);
      expect(login.out + login.err).toMatch(/logged in to notes as ci-runner \(scopes notes:read; expires in 60 min, client credentials\)/);
      expect((await stored(f)).servers.notes?.tokens?.access_token).toBe(f.as.issued.at(-1));
      const list = await cli(f, "mcp", "list");
      expect(list.out).toMatch(/token expires in 60 min/);
    });

    it("a token the server refuses (401) is replaced by a new one and the call goes through", async () => {
      const before = f.as.issued.length;
      f.mcp.rejected.add(f.as.issued.at(-1) ?? "");
      const call = await cli(f, "mcp", "call", "notes", "whoami");
      expect(call.code, call.err).toBe(0);
      expect(call.out).toContain("hello ci-runner");
      expect(f.as.issued.length).toBe(before + 1);
      expect(f.mcp.acceptedTokens.at(-1)).toBe(f.as.issued.at(-1));
      expect((await stored(f)).servers.notes?.tokens?.access_token).toBe(f.as.issued.at(-1));
    });

    it("a token about to expire is fetched anew before it is sent (no 401 round)", async () => {
      f.as.expiresIn = 30;
      f.mcp.rejected.add(f.as.issued.at(-1) ?? "");
      expect((await cli(f, "mcp", "call", "notes", "whoami")).code).toBe(0);
      const shortLived = f.as.issued.at(-1) ?? "";
      f.as.expiresIn = 3600;
      const before = f.as.issued.length;
      const call = await cli(f, "mcp", "call", "notes", "whoami");
      expect(call.code, call.err).toBe(0);
      expect(f.as.issued.length).toBe(before + 1);
      // The short-lived token was never sent again: the new one was fetched first.
      expect(f.mcp.acceptedTokens.filter((t) => t === shortLived)).toHaveLength(1);
      expect(f.mcp.acceptedTokens.at(-1)).toBe(f.as.issued.at(-1));
    });
  });

  describe("refusals", () => {
    let f: Fixture | undefined;
    afterEach(async () => {
      await stop(f);
      f = undefined;
    });

    it("a wrong secret: exit 6, naming the server and the setting to check, never the secret, no SDK warning", async () => {
      f = await start({ grant: "client_credentials", clientId: "ci-runner", clientSecret: "${CI_MCP_SECRET}" }, { CI_MCP_SECRET: "not-the-secret-91c2" }, { clientId: "ci-runner", secret: SECRET });
      f.as.requests.length = 0;
      const call = await cli(f, "--json", "mcp", "call", "notes", "whoami");
      expect(call.code).toBe(6);
      const error = (JSON.parse(call.out) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("MCP_OAUTH_FAILED");
      expect(error.message).toContain(`server notes: the authorization server ${f.as.issuer}/token refused the client credentials (invalid_client: client authentication failed)`);
      expect(error.message).toContain("Check oauth.clientId and oauth.clientSecret");
      expect(call.out + call.err).not.toContain("not-the-secret-91c2");
      expect(call.err).not.toContain("[mcp-sdk]");
      // Refused once, not retried with the same credentials.
      expect(f.as.requests.filter((r) => r.client === undefined)).toHaveLength(1);
    }, 60_000);

    it("a public key where the private key goes: refused before anything is sent, naming oauth.privateKey", async () => {
      f = await start({ grant: "client_credentials", clientId: "ci-runner", privateKey: "${CI_MCP_KEY}" }, { CI_MCP_KEY: EC_PUBLIC }, { clientId: "ci-runner", publicKey: EC_PUBLIC });
      const call = await cli(f, "--json", "mcp", "call", "notes", "whoami");
      expect(call.code).toBe(6);
      expect((JSON.parse(call.out) as { error: { message: string } }).error.message).toBe(
        "server notes: oauth.privateKey is a public key, not the private key. Set the variable it names to the client's private key (PEM, or a private JWK as JSON).",
      );
      expect(f.as.requests).toEqual([]);
    }, 60_000);
  });

  describe("the authorization server the credentials are bound to", () => {
    let f: Fixture | undefined;
    afterAll(() => stop(f));

    it("oauth.issuer other than the one the server names: the secret is never sent", async () => {
      f = await start({ grant: "client_credentials", clientId: "ci-runner", clientSecret: "${CI_MCP_SECRET}", issuer: "https://auth.example.com" }, { CI_MCP_SECRET: SECRET }, { clientId: "ci-runner", secret: SECRET });
      const call = await cli(f, "--json", "mcp", "call", "notes", "whoami");
      expect(call.code).toBe(6);
      expect((JSON.parse(call.out) as { error: { message: string } }).error.message).toBe(
        `server notes now names the authorization server ${f.as.issuer}, but its client credentials belong to https://auth.example.com (oauth.issuer, or the one they were first used with); they were not sent. If the server really moved, set oauth.issuer to the new one (or run \`mcpvm mcp logout notes\` to forget the old binding).`,
      );
      expect(f.as.requests).toEqual([]);
    }, 60_000);
  });

  describe("private_key_jwt (RFC 7523), the key from ${VAR}", () => {
    let f: Fixture;
    beforeAll(async () => {
      f = await start({ grant: "client_credentials", clientId: "ci-runner", privateKey: "${CI_MCP_KEY}" }, { CI_MCP_KEY: EC_PRIVATE }, { clientId: "ci-runner", publicKey: EC_PUBLIC, algorithm: "ES256" });
    }, 60_000);
    afterAll(() => stop(f));

    it("signs an assertion the authorization server verifies with the client's public key (ES256 from the key's curve)", async () => {
      const call = await cli(f, "mcp", "call", "notes", "whoami");
      expect(call.code, call.err).toBe(0);
      expect(call.out).toContain("hello ci-runner");
      // One token, fetched at approval, and used by the call.
      expect(f.as.requests).toEqual([{ grant: "client_credentials", client: "ci-runner", method: "private_key_jwt" }]);
      expect(f.mcp.acceptedTokens).toEqual([f.as.issued[0]]);
      expect(call.out + call.err).not.toContain("PRIVATE KEY");
    });
  });
});

describe("the server→client stream of a connection that outlives its token", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await start({ grant: "client_credentials", clientId: "ci-runner", clientSecret: "${CI_MCP_SECRET}" }, { CI_MCP_SECRET: SECRET }, { clientId: "ci-runner", secret: SECRET });
  }, 60_000);
  afterAll(() => stop(f));

  it("is closed when its token expires and opened again with a new one", async () => {
    f.as.expiresIn = 3;
    f.mcp.rejected.add(f.as.issued.at(-1) ?? "");
    const host = await McpvmHost.open({ env: f.env });
    try {
      const first = await host.run(`return await require("host:mcp-notes").whoami({});`);
      expect(first.ok ? first.value : first.error).toBe("hello ci-runner");
      const opened = f.mcp.streams.filter((s) => s.closedAt === undefined);
      expect(opened).toHaveLength(1);
      const token = opened[0]?.token ?? "";
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      // The stream opened with the expired token is closed, and one with a newer token is open.
      expect(f.mcp.streams.find((s) => s.token === token)?.closedAt).toBeDefined();
      const now = f.mcp.streams.filter((s) => s.closedAt === undefined);
      expect(now).toHaveLength(1);
      expect(now[0]?.token).not.toBe(token);
      expect(f.as.issued).toContain(now[0]?.token);
    } finally {
      await host.close();
    }
  }, 60_000);
});
