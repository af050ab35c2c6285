import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli-io.js";

export interface CliAnswer {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `mcpvm <argv>` in-process with this env. */
export async function cliWith(env: Record<string, string | undefined>, argv: readonly string[]): Promise<CliAnswer> {
  const io = captureIo(env);
  const code = await runCli([...argv], io);
  return { code, out: io.stdoutText(), err: io.stderrText() };
}

/**
 * A home with one OAuth server `notes` (client id mcpvm-e2e, scope notes:read) at `url`, the mcp
 * plugin and the server approved, and logged in through the "browser" (curl following redirects).
 */
export async function loggedInNotesHome(prefix: string, url: string): Promise<{ readonly home: string; readonly env: Record<string, string | undefined> }> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  const env = { MCPVM_HOME: home, PATH: process.env.PATH, HOME: home, BROWSER: "curl -sS -L --max-redirs 5 -o /dev/null %s" };
  await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { notes: { url, oauth: { clientId: "mcpvm-e2e", scopes: "notes:read" } } } }), { mode: 0o600 });
  for (const argv of [["--yes", "plugin", "approve", "mcp"], ["plugin", "enable", "mcp"], ["--yes", "mcp", "approve", "notes"], ["mcp", "login", "notes"]]) {
    const result = await cliWith(env, argv);
    expect(result.code, result.err).toBe(0);
  }
  return { home, env };
}
