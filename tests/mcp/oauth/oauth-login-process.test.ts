import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliWith } from "./logged-in-home.js";
import { cliProcess } from "../../trust/helpers.js";
import { startProtectedServer, type ProtectedServer } from "../../fixtures/servers/oauth-protected-server.js";

/**
 * `mcpvm mcp login` as its own process, the way a person runs it: the browser takes seconds to come
 * back, and nothing but the wait for the redirect keeps the process alive meanwhile. (In-process
 * tests cannot show this: the test runner keeps the event loop busy.)
 */
describe("mcp login as a real process waits for a browser that takes its time", () => {
  let as: OAuth2Server;
  let mcp: ProtectedServer;
  let home: string;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    as = new OAuth2Server();
    await as.issuer.keys.generate("RS256");
    await as.start(0, "127.0.0.1");
    as.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      token.payload.jti = randomUUID();
    });
    mcp = await startProtectedServer({ issuer: as.issuer.url ?? "" });
    home = await mkdtemp(join(tmpdir(), "mcpvm-oauth-process-"));
    // The "browser" comes back after 3 s, long after the login started waiting.
    env = { MCPVM_HOME: home, PATH: process.env.PATH, HOME: home, BROWSER: "sleep 3; curl -sS -L --max-redirs 5 -o /dev/null %s" };
    await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { notes: { url: mcp.url, oauth: { clientId: "mcpvm-e2e" } } } }), { mode: 0o600 });
    for (const argv of [["--yes", "plugin", "approve", "mcp"], ["plugin", "enable", "mcp"], ["--yes", "mcp", "approve", "notes"]]) {
      const result = await cliWith(env, argv);
      expect(result.code, result.err).toBe(0);
    }
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await as?.stop();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("stays until the redirect comes, logs in, and exits 0 only then", async () => {
    const result = await cliProcess({ dir: home, env } as never, ["mcp", "login", "notes"]);
    expect(result.stderr).toContain("Waiting for the login to finish");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^logged in to notes as johndoe/);
    const stored = JSON.parse(await readFile(join(home, "oauth-tokens.json"), "utf8")) as { servers: Record<string, { tokens?: { access_token: string } }> };
    expect(stored.servers.notes?.tokens?.access_token).toMatch(/^ey/);
  }, 60_000);
});
