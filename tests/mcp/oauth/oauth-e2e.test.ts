import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli-io.js";
import { cliProcess } from "../../trust/helpers.js";
import { startProtectedServer, type ProtectedServer } from "../../fixtures/servers/oauth-protected-server.js";

/**
 * The whole login life against things we did not write: oauth2-mock-server as the authorization
 * server (OpenID discovery, PKCE, refresh tokens, revocation) in front of a real MCP server over
 * streamable HTTP that checks JWT bearer tokens. The "browser" is curl following the redirect to
 * mcpvm's loopback listener.
 */
describe("OAuth login end to end (oauth2-mock-server + streamable HTTP MCP server)", () => {
  let as: OAuth2Server;
  let mcp: ProtectedServer;
  let home: string;
  let env: Record<string, string | undefined>;
  const grants: string[] = [];
  const revoked: string[] = [];
  /** Refresh tokens the authorization server refuses (expired or revoked). */
  const deadRefresh = new Set<string>();

  const cli = async (...argv: string[]) => {
    const io = captureIo(env);
    const code = await runCli(argv, io);
    return { code, out: io.stdoutText(), err: io.stderrText() };
  };
  const tokensFile = () => join(home, "oauth-tokens.json");
  const stored = async () => JSON.parse(await readFile(tokensFile(), "utf8")) as { servers: Record<string, { tokens?: { access_token: string; refresh_token?: string; expiresAt?: number } }> };

  beforeAll(async () => {
    as = new OAuth2Server();
    await as.issuer.keys.generate("RS256");
    await as.start(0, "127.0.0.1");
    // A unique id per token: the mock's JWTs would otherwise repeat within the same second.
    as.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      token.payload.jti = randomUUID();
    });
    as.service.on("beforeResponse", (response: { body: Record<string, unknown>; statusCode: number }, req: { body: Record<string, string> }) => {
      grants.push(req.body.grant_type ?? "?");
      if (req.body.grant_type === "refresh_token" && deadRefresh.has(req.body.refresh_token ?? "")) {
        response.statusCode = 400;
        // Some servers quote the refused token back: it must not reach the person's terminal through a warning.
        response.body = { error: "invalid_grant", error_description: `refresh token ${req.body.refresh_token ?? ""} expired` };
      }
    });
    as.service.on("beforeRevoke", (_response: unknown, req: NodeJS.ReadableStream) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => revoked.push(new URLSearchParams(body).get("token") ?? ""));
    });
    const issuer = as.issuer.url ?? "";
    mcp = await startProtectedServer({ issuer });
    home = await mkdtemp(join(tmpdir(), "mcpvm-oauth-e2e-"));
    env = { MCPVM_HOME: home, PATH: process.env.PATH, HOME: home, BROWSER: "curl -sS -L --max-redirs 5 -o /dev/null %s" };
    await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { notes: { url: mcp.url, oauth: { clientId: "mcpvm-e2e", scopes: "notes:read" } } } }), { mode: 0o600 });
    expect((await cli("--yes", "plugin", "approve", "mcp")).code).toBe(0);
    expect((await cli("plugin", "enable", "mcp")).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await as?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("approval covers the URL and the oauth block; a server behind a login says so", async () => {
    const approved = await cli("--yes", "mcp", "approve", "notes");
    expect(approved.code, approved.err).toBe(0);
    expect(approved.err).toContain("oauth:   client id mcpvm-e2e, scopes notes:read");
    expect(approved.out).toContain("mcpvm mcp login notes");
  });

  it("a call before login fails with MCP_LOGIN_REQUIRED naming the command (no terminal, no --login)", async () => {
    const result = await cli("--json", "mcp", "call", "notes", "whoami");
    expect(result.code).toBe(5);
    const error = (JSON.parse(result.out) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("MCP_LOGIN_REQUIRED");
    expect(error.message).toContain("server notes needs login: run `mcpvm mcp login notes`");
  });

  it("mcp login opens $BROWSER, takes the redirect on 127.0.0.1 and stores the tokens 0600", async () => {
    // The SDK's developer warnings go straight to the terminal (console.warn), past the face.
    const warn = vi.spyOn(console, "warn");
    const result = await cli("mcp", "login", "notes").finally(() => warn.mockRestore());
    expect(warn.mock.calls.flat().filter((text) => String(text).includes("[mcp-sdk]"))).toEqual([]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^logged in to notes as johndoe \(scopes \S+; expires in \d+ (s|min|h), refreshable\)/);
    expect(result.err).toContain("with $BROWSER");
    const file = await stored();
    const tokens = file.servers.notes?.tokens;
    expect(tokens?.access_token).toMatch(/^ey/);
    expect(tokens?.refresh_token).toBeDefined();
    expect((await stat(tokensFile())).mode & 0o777).toBe(0o600);
    // Never shown: not in what the person saw.
    expect(result.out + result.err).not.toContain(tokens?.access_token ?? "-");
  });

  it("mcp list shows the login and its expiry", async () => {
    const result = await cli("--json", "mcp", "list");
    expect(result.code, result.err).toBe(0);
    const notes = (JSON.parse(result.out) as { servers: { name: string; login?: { state: string; expiresAt?: number } }[] }).servers.find((s) => s.name === "notes");
    expect(notes?.login?.state).toBe("valid");
    expect(notes?.login?.expiresAt).toBeGreaterThan(Date.now());
  });

  it("a call carries the token", async () => {
    const result = await cli("mcp", "call", "notes", "whoami");
    expect(result.code, result.err).toBe(0);
    expect(result.out.trim()).toBe("hello johndoe");
    expect(mcp.acceptedTokens.at(-1)).toBe((await stored()).servers.notes?.tokens?.access_token);
  });

  it("an access token the server rejects (401) is refreshed and the call goes through", async () => {
    const before = (await stored()).servers.notes?.tokens;
    mcp.rejected.add(before?.access_token ?? "");
    const refreshes = grants.filter((g) => g === "refresh_token").length;
    const result = await cli("mcp", "call", "notes", "whoami");
    expect(result.code, result.err).toBe(0);
    expect(grants.filter((g) => g === "refresh_token").length).toBe(refreshes + 1);
    const after = (await stored()).servers.notes?.tokens;
    expect(after?.access_token).not.toBe(before?.access_token);
    expect(mcp.acceptedTokens.at(-1)).toBe(after?.access_token);
  });

  it("a token about to expire is refreshed before it is sent", async () => {
    const file = await stored();
    const tokens = file.servers.notes?.tokens;
    if (tokens === undefined) throw new Error("no tokens");
    tokens.expiresAt = Date.now() + 5_000;
    await writeFile(tokensFile(), JSON.stringify(file), { mode: 0o600 });
    const refreshes = grants.filter((g) => g === "refresh_token").length;
    const result = await cli("mcp", "call", "notes", "whoami");
    expect(result.code, result.err).toBe(0);
    expect(grants.filter((g) => g === "refresh_token").length).toBe(refreshes + 1);
    // Refreshed before the request went out (the mock's JWTs can repeat within a second, so the time tells).
    const after = (await stored()).servers.notes?.tokens as { obtainedAt: number } | undefined;
    expect(after?.obtainedAt).toBeGreaterThan((tokens as unknown as { obtainedAt: number }).obtainedAt);
  });

  it("a revoked login (token refused, refresh token dead) says to log in again; nothing new is stored; no SDK warning on stderr", async () => {
    const tokens = (await stored()).servers.notes?.tokens;
    mcp.rejected.add(tokens?.access_token ?? "");
    deadRefresh.add(tokens?.refresh_token ?? "");
    // A real process: the SDK warns with console.warn, which an in-process run would not show on its stderr.
    const result = await cliProcess({ dir: home, env } as never, ["--json", "mcp", "call", "notes", "whoami"]).then((r) => ({ code: r.code, out: r.stdout, err: r.stderr }));
    expect(result.code).toBe(5);
    expect(result.err).not.toContain("[mcp-sdk]");
    expect(result.out + result.err).not.toContain(tokens?.refresh_token ?? "-");
    const error = (JSON.parse(result.out) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("MCP_LOGIN_REQUIRED");
    expect(error.message).toContain("log in again");
    expect(error.message).toContain("mcpvm mcp login notes");
    expect((await stored()).servers.notes?.tokens).toBeUndefined();
  });

  it("logout revokes the tokens at the server (RFC 7009) and removes them", async () => {
    expect((await cli("mcp", "login", "notes")).code).toBe(0);
    const tokens = (await stored()).servers.notes?.tokens;
    const result = await cli("mcp", "logout", "notes");
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain("tokens revoked at the server and removed");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(revoked).toContain(tokens?.refresh_token);
    expect((await stored()).servers.notes).toBeUndefined();
    const after = await cli("mcp", "call", "notes", "whoami");
    expect(after.code).toBe(5);
  });

  it("logins and logouts are in the hash-chained audit log (server, account, scopes, face, user, time), never a token", async () => {
    // A login started by a script run (`run --login`) records the run face.
    const ran = await cli("run", "--login", "-e", `return require("host:mcp-notes").whoami({})`);
    expect(ran.code, ran.err).toBe(0);
    const tokens = (await stored()).servers.notes?.tokens;
    expect((await cli("mcp", "logout", "notes")).code).toBe(0);

    const log = await cli("--json", "audit", "log");
    expect(log.code, log.err).toBe(0);
    const entries = (JSON.parse(log.out) as { entries: Array<{ event: string; face: string; user: string; time: string; subject: string; decision: string; details?: Record<string, unknown> }> }).entries;
    const logins = entries.filter((e) => e.event === "login");
    // `mcp login` three times in this file (the CLI face), then the run.
    expect(logins.map((e) => [e.face, e.decision])).toEqual([["cli", "logged-in"], ["cli", "logged-in"], ["run", "logged-in"]]);
    for (const e of logins) {
      expect(e.subject).toBe("notes");
      // The scopes as granted (the mock authorization server grants "dummy"), the account from the id token.
      expect(e.details).toEqual({ account: "johndoe", scopes: "dummy" });
      expect(e.user).not.toBe("");
      expect(Number.isNaN(Date.parse(e.time))).toBe(false);
    }
    expect(entries.filter((e) => e.event === "logout").map((e) => [e.face, e.decision, e.details?.revocation])).toEqual([["cli", "logged-out", "revoked"], ["cli", "logged-out", "revoked"]]);
    // No token, access or refresh, anywhere in the log file; and the chain verifies.
    const raw = await readFile(join(home, "audit-log.jsonl"), "utf8");
    for (const secret of [tokens?.access_token, tokens?.refresh_token]) expect(raw).not.toContain(secret ?? "-");
    expect(raw).not.toMatch(/"ey[A-Za-z0-9_-]{20,}\./);
    expect((await cli("audit", "verify")).code).toBe(0);
  });
});
