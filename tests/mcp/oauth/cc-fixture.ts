import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli-io.js";
import { startClientCredentialsAs, type ClientCredentialsAs } from "../../fixtures/servers/client-credentials-as.js";
import { startProtectedServer, type ProtectedServer } from "../../fixtures/servers/oauth-protected-server.js";

// A config home with one server ("notes") behind the client credentials fixture AS, shared by the client credentials tests.

export interface Fixture {
  as: ClientCredentialsAs;
  mcp: ProtectedServer;
  home: string;
  env: Record<string, string | undefined>;
  /** `mcpvm mcp approve notes`, which connects once approved. */
  approve?: { code: number; out: string; err: string };
}

export async function start(oauth: Record<string, unknown>, vars: Record<string, string>, registration: Parameters<typeof startClientCredentialsAs>[0]): Promise<Fixture> {
  const as = await startClientCredentialsAs(registration);
  const mcp = await startProtectedServer({ issuer: as.issuer });
  const home = await mkdtemp(join(tmpdir(), "mcpvm-oauth-cc-"));
  const env = { MCPVM_HOME: home, PATH: process.env.PATH, HOME: home, ...vars };
  await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { notes: { url: mcp.url, oauth } } }), { mode: 0o600 });
  const fixture = { as, mcp, home, env };
  for (const argv of [["--yes", "plugin", "approve", "mcp"], ["plugin", "enable", "mcp"]]) {
    const result = await cli(fixture, ...argv);
    expect(result.code, result.err).toBe(0);
  }
  // Approval stores the approval, then connects to list the tools: with refused credentials that connect fails (exit 6).
  const approved = await cli(fixture, "--yes", "mcp", "approve", "notes");
  expect([0, 6], approved.err).toContain(approved.code);
  return { ...fixture, approve: approved };
}

export async function cli(fixture: Fixture, ...argv: string[]) {
  const io = captureIo(fixture.env);
  const code = await runCli(argv, io);
  return { code, out: io.stdoutText(), err: io.stderrText() };
}

export async function stop(fixture: Fixture | undefined): Promise<void> {
  await fixture?.mcp.close();
  await fixture?.as.close();
  if (fixture !== undefined) await rm(fixture.home, { recursive: true, force: true });
}

export type StoredFile = { servers: Record<string, { url: string; clientId?: string; client?: { issuer?: string }; tokens?: { access_token: string; expiresAt?: number } }> };
export const stored = async (f: Fixture) => JSON.parse(await readFile(join(f.home, "oauth-tokens.json"), "utf8")) as StoredFile;

