import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliWith, loggedInNotesHome } from "./logged-in-home.js";
import { startProtectedServer, type ProtectedServer } from "../../fixtures/servers/oauth-protected-server.js";

/**
 * A server moves its authorization server (its protected resource metadata names another one) and
 * the old one is gone. The login's cached discovery still points at the old one: a refresh cannot
 * be answered there. The person must be told that the server moved and to log in again (which
 * discovers the new one), not to wait for the old authorization server to come back.
 */
describe("OAuth: a server that moved its authorization server", () => {
  const servers: OAuth2Server[] = [];
  let mcp: ProtectedServer;
  let home: string;
  let env: Record<string, string | undefined>;

  const cli = (...argv: string[]) => cliWith(env, argv);
  const stored = async () => (JSON.parse(await readFile(join(home, "oauth-tokens.json"), "utf8")) as { servers: Record<string, { tokens?: { access_token: string; refresh_token?: string }; discovery?: { authorizationServerUrl: string } }> }).servers.notes;
  const startAs = async (): Promise<OAuth2Server> => {
    const as = new OAuth2Server();
    await as.issuer.keys.generate("RS256");
    as.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      token.payload.jti = randomUUID();
    });
    await as.start(0, "127.0.0.1");
    servers.push(as);
    return as;
  };

  beforeAll(async () => {
    const first = await startAs();
    mcp = await startProtectedServer({ issuer: first.issuer.url ?? "" });
    ({ home, env } = await loggedInNotesHome("mcpvm-oauth-moved-", mcp.url));
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    for (const as of servers) await as.stop().catch(() => undefined);
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("a call names the new authorization server and says to log in again; `mcp login` then works", async () => {
    const [first] = servers;
    const oldIssuer = first?.issuer.url ?? "";
    const second = await startAs();
    const newIssuer = second.issuer.url ?? "";
    const port = Number(new URL(mcp.url).port);
    await mcp.close();
    await first?.stop();
    mcp = await startProtectedServer({ issuer: newIssuer, port });

    const moved = await cli("--json", "mcp", "call", "notes", "whoami");
    const error = (JSON.parse(moved.out) as { error: { code: string; message: string } }).error;
    expect(moved.code).toBe(5);
    expect(error.code).toBe("MCP_LOGIN_REQUIRED");
    expect(error.message).toBe(`server notes needs login (it now names the authorization server ${newIssuer}, not ${oldIssuer} that its login came from): run \`mcpvm mcp login notes\``);

    // The pre-registered client id is bound to the old authorization server: nothing goes to the new one unasked.
    const bound = await cli("--json", "mcp", "login", "notes");
    expect(bound.code).toBe(6);
    expect((JSON.parse(bound.out) as { error: { message: string } }).error.message).toBe(
      `server notes now names the authorization server ${newIssuer}, but its client id oauth.clientId was first used with ${oldIssuer}; nothing was sent there. If the server really moved, run \`mcpvm mcp logout notes\` to forget the old binding, then \`mcpvm mcp login notes\`.`,
    );
    const logout = await cli("mcp", "logout", "notes");
    expect(logout.code, logout.err).toBe(0);
    const login = await cli("mcp", "login", "notes");
    expect(login.code, login.err).toBe(0);
    expect((await stored())?.discovery?.authorizationServerUrl).toBe(newIssuer);
    const call = await cli("mcp", "call", "notes", "whoami");
    expect(call.code, call.err).toBe(0);
    expect(call.out).toContain("hello johndoe");
  }, 60_000);
});
