import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { McpvmHost } from "../../../src/host/index.js";
import { captureIo } from "../../support/cli-io.js";
import { cliProcess } from "../../trust/helpers.js";
import { startProtectedServer, type ProtectedServer } from "../../fixtures/servers/oauth-protected-server.js";

/**
 * Two mcpvm processes share one login (a gateway and a `mcpvm run`, two terminals) and the
 * authorization server rotates refresh tokens with RFC 9700's reuse detection (§4.14.2): each
 * refresh token works once, and a second use of a spent one revokes the whole family — the
 * refresh token another process holds now too. When one process refreshes, the other still holds
 * the spent refresh token in memory: it must take up the stored one instead of sending the spent
 * one, or the person is logged out everywhere.
 */
describe("OAuth: a refresh by another process, with rotating refresh tokens", () => {
  let as: OAuth2Server;
  let mcp: ProtectedServer;
  let home: string;
  let env: Record<string, string>;
  const spent = new Set<string>();
  const refusedReuse: string[] = [];
  /** Refresh tokens revoked with their family after a reuse. */
  const revokedFamily = new Set<string>();
  let latest = "";

  const cli = async (...argv: string[]) => {
    const io = captureIo(env);
    const code = await runCli(argv, io);
    return { code, out: io.stdoutText(), err: io.stderrText() };
  };
  const stored = async () => JSON.parse(await readFile(join(home, "oauth-tokens.json"), "utf8")) as { servers: Record<string, { tokens?: { access_token: string; refresh_token?: string } }> };

  beforeAll(async () => {
    as = new OAuth2Server();
    await as.issuer.keys.generate("RS256");
    await as.start(0, "127.0.0.1");
    as.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      token.payload.jti = randomUUID();
    });
    as.service.on("beforeResponse", (response: { body: Record<string, unknown>; statusCode: number }, req: { body: Record<string, string> }) => {
      if (req.body.grant_type === "authorization_code") latest = String(response.body.refresh_token);
      if (req.body.grant_type !== "refresh_token") return;
      const used = req.body.refresh_token ?? "";
      if (spent.has(used) || revokedFamily.has(used)) {
        if (spent.has(used)) refusedReuse.push(used);
        // Reuse detection: the family's live refresh token is revoked too.
        revokedFamily.add(latest);
        response.statusCode = 400;
        response.body = { error: "invalid_grant", error_description: "refresh token already used" };
        return;
      }
      spent.add(used);
      // Rotation: a new refresh token with every refresh.
      latest = randomUUID();
      response.body.refresh_token = latest;
    });
    mcp = await startProtectedServer({ issuer: as.issuer.url ?? "" });
    home = await mkdtemp(join(tmpdir(), "mcpvm-oauth-rotation-"));
    env = { MCPVM_HOME: home, PATH: process.env.PATH ?? "", HOME: home, BROWSER: "curl -sS -L --max-redirs 5 -o /dev/null %s" };
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs", mcpServers: { notes: { url: mcp.url, oauth: { clientId: "mcpvm-e2e", scopes: "notes:read" } } } }), { mode: 0o600 });
    expect((await cli("--yes", "plugin", "approve", "mcp")).code).toBe(0);
    expect((await cli("plugin", "enable", "mcp")).code).toBe(0);
    expect((await cli("--yes", "mcp", "approve", "notes")).code).toBe(0);
    const login = await cli("mcp", "login", "notes");
    expect(login.code, login.err).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await as?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("the process whose refresh token another process spent keeps working with the stored login, and nobody is logged out", async () => {
    // Process B: a long-lived host (the gateway, a REPL) that has read the login and used it.
    const hostB = await McpvmHost.open({ env });
    try {
      const whoami = `return await require("host:mcp-notes").whoami({});`;
      const first = await hostB.run(whoami);
      expect(first.ok ? first.value : first.error).toBe("hello johndoe");
      const before = (await stored()).servers.notes?.tokens;
      // The access token expires; process A (a real second process) refreshes first and spends the refresh token.
      mcp.rejected.add(before?.access_token ?? "");
      const a = await cliProcess({ dir: home, env } as never, ["mcp", "call", "notes", "whoami"]);
      expect(a.code, a.stderr).toBe(0);
      expect((await stored()).servers.notes?.tokens?.refresh_token).not.toBe(before?.refresh_token);
      // B's next call: its token is refused, its refresh token was spent by A.
      const second = await hostB.run(whoami);
      expect(second.ok ? second.value : second.error).toBe("hello johndoe");
      expect(refusedReuse).toEqual([]);
    } finally {
      await hostB.close();
    }
    // The login survived for everyone.
    expect((await stored()).servers.notes?.tokens).toBeDefined();
    const again = await cli("mcp", "call", "notes", "whoami");
    expect(again.code, again.err).toBe(0);
  }, 90_000);

  it("two processes refreshing at once: one refreshes, the other takes up its tokens; no spent refresh token is sent", async () => {
    const before = (await stored()).servers.notes?.tokens;
    mcp.rejected.add(before?.access_token ?? "");
    const [a, b] = await Promise.all([0, 1].map(() => cliProcess({ dir: home, env } as never, ["mcp", "call", "notes", "whoami"])));
    expect(a?.code, a?.stderr).toBe(0);
    expect(b?.code, b?.stderr).toBe(0);
    expect(refusedReuse).toEqual([]);
    const again = await cli("mcp", "call", "notes", "whoami");
    expect(again.code, again.err).toBe(0);
  }, 90_000);
});
