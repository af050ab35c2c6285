import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliWith, loggedInNotesHome } from "./logged-in-home.js";
import { startProtectedServer, type ProtectedServer } from "../../fixtures/servers/oauth-protected-server.js";

/**
 * Scope step-up (MCP authorization spec, "Scope Selection Strategy" / "Step-Up Authorization
 * Flow"): a server answers a call mid-session with 403 `insufficient_scope` and the scopes it
 * needs. The client logs in again asking for them; one that may not open a browser says so.
 */
describe("OAuth: a 403 insufficient_scope mid-session", () => {
  let as: OAuth2Server;
  let mcp: ProtectedServer;
  let home: string;
  let env: Record<string, string | undefined>;
  const requestedScopes: string[] = [];

  const cli = (...argv: string[]) => cliWith(env, argv);
  const storedScope = async () => (JSON.parse(await readFile(join(home, "oauth-tokens.json"), "utf8")) as { servers: Record<string, { tokens?: { scope?: string } }> }).servers.notes?.tokens?.scope;

  beforeAll(async () => {
    as = new OAuth2Server();
    await as.issuer.keys.generate("RS256");
    as.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      token.payload.jti = randomUUID();
      // What the person's browser login asked for is what is granted (the mock would say "dummy").
      token.payload.scope = requestedScopes.at(-1) ?? "";
    });
    as.service.on("beforeResponse", (response: { body: Record<string, unknown> }, req: { body: Record<string, string> }) => {
      if (req.body.grant_type === "authorization_code") response.body.scope = requestedScopes.at(-1) ?? "";
    });
    as.service.on("beforeAuthorizeRedirect", (_redirect: unknown, req: { query: Record<string, string> }) => {
      requestedScopes.push(req.query.scope ?? "");
    });
    await as.start(0, "127.0.0.1");
    mcp = await startProtectedServer({ issuer: as.issuer.url ?? "" });
    ({ home, env } = await loggedInNotesHome("mcpvm-oauth-stepup-", mcp.url));
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await as?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("without a browser: says which server wants a login and the command; then `mcp login` asks for the wider scope and the call works", async () => {
    mcp.requiredScope = "notes:write";
    const refused = await cli("--json", "mcp", "call", "notes", "whoami");
    const error = (JSON.parse(refused.out) as { error: { code: string; message: string } }).error;
    expect(refused.code).toBe(5);
    expect(error.code).toBe("MCP_LOGIN_REQUIRED");
    expect(error.message).toBe('server notes needs login (it answered 403 insufficient_scope: it wants the scope "notes:read notes:write"): run `mcpvm mcp login notes`');

    const login = await cli("mcp", "login", "notes");
    expect(login.code, login.err).toBe(0);
    expect(requestedScopes.at(-1)).toBe("notes:read notes:write");
    const call = await cli("mcp", "call", "notes", "whoami");
    expect(call.code, call.err).toBe(0);
    expect(call.out).toContain("hello johndoe");
  }, 60_000);

  it("with a browser (--login): the call logs in again asking for the union of scopes and goes through, once", async () => {
    mcp.requiredScope = "notes:admin";
    const logins = requestedScopes.length;
    const call = await cli("mcp", "call", "--login", "notes", "whoami");
    expect(call.code, call.err).toBe(0);
    expect(call.out).toContain("hello johndoe");
    expect(requestedScopes.slice(logins)).toEqual(["notes:read notes:write notes:admin"]);
    expect((await storedScope())?.split(" ")).toContain("notes:admin");
  }, 60_000);
});
