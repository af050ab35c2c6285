import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliWith, loggedInNotesHome } from "./logged-in-home.js";
import { startProtectedServer, type ProtectedServer } from "../../fixtures/servers/oauth-protected-server.js";

/**
 * The authorization server is down when an access token needs a refresh. The login is not expired
 * or revoked: the person is told which server did not answer and that the login is kept, not sent
 * to `mcp login` (which would fail the same way). A `mcp login` that fails keeps the login it was to replace.
 */
describe("OAuth: the authorization server is down when a refresh is due", () => {
  let as: OAuth2Server;
  let asPort = 0;
  let mcp: ProtectedServer;
  let home: string;
  let env: Record<string, string | undefined>;

  const cli = (...argv: string[]) => cliWith(env, argv);
  const storedTokens = async () => (JSON.parse(await readFile(join(home, "oauth-tokens.json"), "utf8")) as { servers: Record<string, { tokens?: { access_token: string; refresh_token?: string } }> }).servers.notes?.tokens;
  const startAs = async (port: number) => {
    await as.start(port, "127.0.0.1");
    asPort = Number(new URL(as.issuer.url ?? "").port);
  };

  beforeAll(async () => {
    as = new OAuth2Server();
    await as.issuer.keys.generate("RS256");
    as.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      token.payload.jti = randomUUID();
    });
    await startAs(0);
    mcp = await startProtectedServer({ issuer: as.issuer.url ?? "" });
    ({ home, env } = await loggedInNotesHome("mcpvm-oauth-down-", mcp.url));
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await as?.stop().catch(() => undefined);
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("a call says the token endpoint did not answer and that the login is kept (exit 6); it works once the server is back", async () => {
    const before = await storedTokens();
    mcp.rejected.add(before?.access_token ?? "");
    await as.stop();
    const down = await cli("--json", "mcp", "call", "notes", "whoami");
    const error = (JSON.parse(down.out) as { error: { code: string; message: string } }).error;
    expect(down.code).toBe(6);
    expect(error.code).toBe("MCP_OAUTH_FAILED");
    expect(error.message).toContain(`server notes: its access token needs a refresh, and the token endpoint http://localhost:${asPort}/token could not give one (ECONNREFUSED). The login is kept`);
    expect((await storedTokens())?.refresh_token).toBe(before?.refresh_token);

    await startAs(asPort);
    const back = await cli("mcp", "call", "notes", "whoami");
    expect(back.code, back.err).toBe(0);
    expect(back.out).toContain("hello johndoe");
  }, 60_000);

  it("a login while it is down names the address it could not reach, and leaves the login it was to replace", async () => {
    const before = await storedTokens();
    await as.stop();
    const login = await cli("--json", "mcp", "login", "notes");
    const error = (JSON.parse(login.out) as { error: { code: string; message: string } }).error;
    expect(login.code).toBe(6);
    expect(error.message).toBe(
      `server notes: cannot reach http://localhost:${asPort}/.well-known/oauth-authorization-server (ECONNREFUSED), an OAuth endpoint of its login. Check that it is up and reachable from here, then try again.`,
    );
    expect((await storedTokens())?.refresh_token).toBe(before?.refresh_token);

    // Back up: the kept login refreshes without a browser.
    await startAs(asPort);
    mcp.rejected.add(before?.access_token ?? "");
    const call = await cli("mcp", "call", "notes", "whoami");
    expect(call.code, call.err).toBe(0);
  }, 60_000);
});
