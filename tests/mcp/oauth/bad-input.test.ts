import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli-io.js";

/**
 * Logins that must fail: a misbehaving authorization server or resource (each case a flag of the
 * fakes below), a forged redirect, a redirect pasted back from another host. Each fails with a
 * typed error that names the server, and no token is stored.
 */
interface Behaviour {
  malformedMetadata?: boolean;
  resource?: string;
  issInRedirect?: string;
  stateInRedirect?: string;
  authorizationEndpoint?: string;
  /** The resource metadata document goes on for this many MiB. */
  hugeResourceMetadataMiB?: number;
  /** No registration_endpoint: the authorization server registers no clients itself (most company identity providers). */
  noRegistration?: boolean;
}

let behaviour: Behaviour = {};
let tokenRequests = 0;
let base = "";
let http: Server;
let home: string;
let env: Record<string, string | undefined>;

function listen(): Promise<void> {
  http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource") && behaviour.hugeResourceMetadataMiB !== undefined) {
      res.writeHead(200, { "content-type": "application/json" }).write(`{"resource":"${base}/mcp","authorization_servers":["${base}"],"padding":"`);
      for (let i = 0; i < behaviour.hugeResourceMetadataMiB; i++) res.write("a".repeat(1 << 20));
      return res.end('"}');
    }
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) return json({ resource: behaviour.resource ?? `${base}/mcp`, authorization_servers: [base] });
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      if (behaviour.malformedMetadata) return res.writeHead(200, { "content-type": "application/json" }).end('{"issuer": "' + base + '", "authorization_endpoint": ');
      return json({
        issuer: base,
        authorization_endpoint: behaviour.authorizationEndpoint ?? `${base}/as/authorize`,
        token_endpoint: `${base}/as/token`,
        ...(behaviour.noRegistration === true ? {} : { registration_endpoint: `${base}/as/register` }),
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        authorization_response_iss_parameter_supported: true,
      });
    }
    // Under /as/, so that the SDK's 2025-03-26 fallback (/authorize, /token at the root) finds nothing.
    if (url.pathname === "/as/register") return json({ client_id: "registered", redirect_uris: [], token_endpoint_auth_method: "none" });
    if (url.pathname === "/as/authorize") {
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "http://127.0.0.1/");
      redirect.searchParams.set("code", "the-code");
      redirect.searchParams.set("state", behaviour.stateInRedirect ?? url.searchParams.get("state") ?? "");
      redirect.searchParams.set("iss", behaviour.issInRedirect ?? base);
      return res.writeHead(302, { location: redirect.toString() }).end();
    }
    if (url.pathname === "/as/token") {
      tokenRequests += 1;
      return json({ access_token: "never-stored-token", token_type: "Bearer", expires_in: 3600 });
    }
    res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
  });
  return new Promise((resolve) =>
    http.listen(0, "127.0.0.1", () => {
      base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

const cli = async (argv: string[], stdin = "") => {
  const io = captureIo(env, stdin);
  const code = await runCli(argv, io);
  return { code, out: io.stdoutText(), err: io.stderrText() };
};

async function failedLogin(case_: Behaviour, argv: string[] = ["--json", "mcp", "login", "remote"], stdin = ""): Promise<{ code: string; message: string; exit: number }> {
  behaviour = case_;
  tokenRequests = 0;
  const result = await cli(argv, stdin);
  const error = (JSON.parse(result.out) as { error: { code: string; message: string } }).error;
  const stored = await readFile(join(home, "oauth-tokens.json"), "utf8").catch(() => "{}");
  expect(stored).not.toContain("never-stored-token");
  expect(JSON.parse(stored).servers?.remote?.tokens).toBeUndefined();
  expect(error.message).toContain("remote");
  return { ...error, exit: result.code };
}

beforeAll(async () => {
  await listen();
  home = await mkdtemp(join(tmpdir(), "mcpvm-oauth-bad-"));
  env = { MCPVM_HOME: home, PATH: process.env.PATH, HOME: home, BROWSER: "curl -sS -L --max-redirs 5 -o /dev/null %s" };
  await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { remote: { url: `${base}/mcp` } } }), { mode: 0o600 });
  for (const argv of [["--yes", "plugin", "approve", "mcp"], ["plugin", "enable", "mcp"], ["--yes", "mcp", "approve", "remote"]]) expect((await cli(argv)).code).toBe(0);
}, 60_000);

afterAll(async () => {
  http?.closeAllConnections();
  http?.close();
  if (home !== undefined) await rm(home, { recursive: true, force: true });
});

describe("OAuth bad input: clear typed errors naming the server, nothing stored", () => {
  it("a malformed authorization server metadata document", async () => {
    const error = await failedLogin({ malformedMetadata: true });
    expect(error.code).toBe("MCP_OAUTH_FAILED");
    expect(error.exit).toBe(6);
  });

  it("a protected resource whose `resource` is another server's", async () => {
    const error = await failedLogin({ resource: "https://elsewhere.example.com/mcp" });
    expect(error.code).toBe("MCP_OAUTH_FAILED");
    expect(error.message).toContain("elsewhere.example.com");
  });

  it("an `iss` in the authorization response that is not the authorization server's", async () => {
    const error = await failedLogin({ issInRedirect: "https://evil.example.com" });
    expect(error.code).toBe("MCP_OAUTH_FAILED");
    expect(error.message).toMatch(/iss/i);
    expect(tokenRequests).toBe(0);
  });

  it("a resource metadata document of many MiB is refused after 1 MiB, naming where it came from", async () => {
    const error = await failedLogin({ hugeResourceMetadataMiB: 64 });
    expect(error.code).toBe("MCP_OAUTH_FAILED");
    expect(error.message).toContain(`${base}/.well-known/oauth-protected-resource/mcp is larger than 1024 KiB`);
    expect(tokenRequests).toBe(0);
  });

  it("a redirect whose state is not the one sent", async () => {
    const error = await failedLogin({ stateInRedirect: "forged" });
    expect(error.code).toBe("MCP_OAUTH_STATE_MISMATCH");
    expect(tokenRequests).toBe(0);
  });

  it("an authorization endpoint on plain http off loopback", async () => {
    const error = await failedLogin({ authorizationEndpoint: "http://auth.example.com/authorize" });
    expect(error.code).toBe("MCP_OAUTH_INSECURE");
    expect(error.message).toContain("http://auth.example.com");
  });

  it("a redirect pasted back (--no-browser) that goes to another host", async () => {
    const error = await failedLogin({}, ["--json", "mcp", "login", "remote", "--no-browser"], "https://phish.example.com/callback?code=x&state=y\n");
    expect(error.code).toBe("MCP_OAUTH_INSECURE");
    expect(error.message).toContain("phish.example.com");
  });

  it("an authorization server without Dynamic Client Registration, and no oauth.clientId: says what to register and where to put it", async () => {
    // The earlier cases left a client registered (DCR) in the store: this one starts without.
    await rm(join(home, "oauth-tokens.json"), { force: true });
    const error = await failedLogin({ noRegistration: true });
    expect(error.code).toBe("MCP_OAUTH_FAILED");
    expect(error.exit).toBe(6);
    expect(error.message).toContain(`the authorization server ${base} does not register clients itself (no Dynamic Client Registration)`);
    expect(error.message).toContain(`"oauth": {"clientId": "<its client id>", "callbackPort": 33418}`);
    expect(error.message).toContain("http://127.0.0.1:33418/callback");
    expect(error.message).toContain("mcpvm mcp approve remote");
    expect(tokenRequests).toBe(0);
  });
});
