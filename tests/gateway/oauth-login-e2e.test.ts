import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { startIdentityProvider, type IdentityProvider } from "./fixtures/identity-provider.js";
import { makeHome, memoryServer, type TestHome } from "./helpers.js";

/**
 * The proof that the gateway's metadata is right: our own OAuth client (`mcpvm mcp login`, the
 * MCP SDK's discovery) finds the identity provider from the gateway's 401 and RFC 9728 metadata
 * alone, logs in with PKCE (the "browser" is curl following the redirects), asks for a token
 * bound to the gateway's resource URL (RFC 8707), and calls a tool through the gateway with it.
 */
describe("mcpvm mcp login to the gateway through its identity provider", () => {
  let idp: IdentityProvider;
  let gatewayHome: TestHome;
  let running: RunningGateway;
  let home: string;
  let env: Record<string, string | undefined>;
  const resourcesAsked: Array<string | undefined> = [];

  const cli = async (...argv: string[]) => {
    const io = captureIo(env);
    const code = await runCli(argv, io);
    return { code, out: io.stdoutText(), err: io.stderrText() };
  };

  beforeAll(async () => {
    idp = await startIdentityProvider();
    // The mock grants neither resource indicators nor the scopes asked for at /authorize (its tokens say
    // "dummy"): as a real IdP would, the access token gets the audience and scopes the client asked for.
    let authorizedScope: string | undefined;
    idp.service.on("beforeAuthorizeRedirect", (_redirect: unknown, req: { url?: string }) => {
      authorizedScope = new URL(req.url ?? "/", "http://idp").searchParams.get("scope") ?? undefined;
    });
    idp.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }, req: { body: Record<string, string | undefined> }) => {
      resourcesAsked.push(req.body.resource);
      if (req.body.resource !== undefined) token.payload.aud = req.body.resource;
      if (authorizedScope !== undefined) token.payload.scope = authorizedScope;
    });
    const memoryDir = await mkdtemp(join(tmpdir(), "mcpvm-gw-memory-"));
    gatewayHome = await makeHome({
      servers: { memory: memoryServer(memoryDir) },
      gateway: { oauth: { issuer: idp.url, requiredScopes: ["mcp"], clients: { people: { match: { sub: "johndoe" }, servers: ["memory"] } } } },
    });
    running = await startGateway({ env: gatewayHome.env, http: { host: "127.0.0.1", port: 0 }, token: "gateway-token-0123456789abcdef", logLevel: "error", pretty: false });

    home = await mkdtemp(join(tmpdir(), "mcpvm-gw-login-"));
    env = { MCPVM_HOME: home, PATH: process.env.PATH, HOME: home, BROWSER: "curl -sS -L --max-redirs 5 -o /dev/null %s" };
    await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { team: { url: running.url, oauth: { clientId: "mcpvm-cli", scopes: "mcp" } } } }), { mode: 0o600 });
    expect((await cli("--yes", "plugin", "approve", "mcp")).code).toBe(0);
    expect((await cli("plugin", "enable", "mcp")).code).toBe(0);
    expect((await cli("--yes", "mcp", "approve", "team")).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await idp?.close();
    await gatewayHome?.cleanup();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("before login, a call says the gateway needs one", async () => {
    const result = await cli("--json", "mcp", "call", "team", "list_mcp_tools");
    expect(result.code).toBe(5);
    expect(result.out).toContain("MCP_LOGIN_REQUIRED");
  });

  it("logs in through the metadata the gateway publishes, with a token for the gateway's resource URL", async () => {
    const result = await cli("mcp", "login", "team");
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^logged in to team as johndoe/);
    expect(resourcesAsked).toContain(running.url);
  });

  it("calls through the gateway with the access token, scripts included", async () => {
    const listed = await cli("mcp", "call", "team", "list_mcp_tools");
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain("memory");
    // Our own audit holds run_mcp_script (its description asks for code): accepted as a person would.
    const accepted = await cli("--yes", "mcp", "approve", "team", "--tools", "--accept-blocked", "run_mcp_script");
    expect(accepted.code, accepted.err).toBe(0);
    const script = await cli("--json", "--yes", "mcp", "call", "team", "run_mcp_script", JSON.stringify({ script: 'const m = require("host:mcp-memory"); return Object.keys(await m.read_graph({}));' }));
    expect(script.code, script.err + script.out).toBe(0);
    expect(script.out).toContain("entities");
  });
});
