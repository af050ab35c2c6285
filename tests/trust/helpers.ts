import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

import { runCli } from "../../src/cli/main.js";
import { McpvmHost } from "../../src/host/index.js";
import { captureIo } from "../support/cli-io.js";
export { isAlive } from "../support/processes.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const FIXTURE = join(ROOT, "tests/fixtures/servers/fixture-server.mjs");
/** A stdio server that re-reads its tool list from a spec file at every start (see the file). */
export const SCRIPTED = join(ROOT, "tests/trust/fixtures/scripted-server.mjs");

export interface TrustHome {
  readonly dir: string;
  /** The environment every face of this test runs with (MCPVM_HOME points at `dir`). */
  readonly env: Record<string, string>;
  /** The file the fixture servers append one line to at every start. */
  readonly starts: string;
  cleanup(): Promise<void>;
}

export interface HomeOptions {
  readonly servers: (starts: string, dir: string) => Record<string, Record<string, unknown>>;
  /** Servers approved up front (default: none; most trust tests begin unapproved). */
  readonly approve?: readonly string[];
  /** plugins.mcp.config */
  readonly mcp?: Record<string, unknown>;
  /** Extra host environment (canaries that must not reach servers). */
  readonly env?: Record<string, string>;
}

/** A config home in a temp dir: config.json written, the mcp plugin approved and enabled. */
export async function makeHome(options: HomeOptions): Promise<TrustHome> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-trust-"));
  const starts = join(dir, "starts.log");
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", ...options.env };
  const config = { plugins: { mcp: { enabled: true, config: { ...options.mcp } } }, mcpServers: options.servers(starts, dir) };
  await writeFile(join(dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  try {
    await host.plugins.approve("mcp");
    if ((options.approve ?? []).length > 0) {
      const service = await host.requireMcp();
      for (const name of options.approve ?? []) await service.approve(name);
    }
  } finally {
    await host.close();
  }
  return { dir, env, starts, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Rewrites mcpServers in the home's config.json (the definition changes under an approval). */
export async function setServers(home: TrustHome, servers: Record<string, Record<string, unknown>>, mcp: Record<string, unknown> = {}): Promise<void> {
  const config = { plugins: { mcp: { enabled: true, config: mcp } }, mcpServers: servers };
  await writeFile(join(home.dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
}

/** Lines of the starts file: one per server process ever started. */
export function startCount(file: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, "utf8").split("\n").filter((line) => line.length > 0).length;
}

export function stdioServer(starts: string, args: readonly string[] = [], env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE, ...args], env: { MCPVM_FIXTURE_STARTS: starts, ...env } };
}

export function scriptedServer(starts: string, spec: string, env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [SCRIPTED, spec], env: { MCPVM_FIXTURE_STARTS: starts, ...env }, confirm: "never" };
}

export interface CliOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real CLI, in-process, with captured stdout and stderr and no terminal (nothing can be asked). */
export async function cli(home: TrustHome, argv: readonly string[]): Promise<CliOutcome> {
  const io = captureIo(home.env, "", home.dir);
  const code = await runCli(argv, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

export async function writeScript(home: TrustHome, name: string, code: string): Promise<string> {
  await writeFile(join(home.dir, name), code);
  return name;
}

export function openHost(home: TrustHome): Promise<McpvmHost> {
  return McpvmHost.open({ env: home.env });
}

/**
 * A plain HTTP listener on 127.0.0.1 that counts every request it gets (and answers 404): proof
 * that a URL was, or was not, contacted.
 */
export async function countingListener(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    count += 1;
    req.resume();
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests: () => count,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** The fixture as a streamable HTTP server on 127.0.0.1 (started by the test, not by mcpvm). */
export async function startHttpFixture(args: readonly string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [FIXTURE, "--transport", "http", ...args], { stdio: ["pipe", "pipe", "ignore"] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((done, fail) => {
    lines.once("line", (line) => done((JSON.parse(line) as { url: string }).url));
    child.once("exit", (code) => fail(new Error(`http fixture exited with ${code}`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGKILL");
    await exited;
  };
  return { url, stop };
}

const VITE_NODE = join(ROOT, "node_modules/vite-node/vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests/trust/fixtures/cli-entry.ts");

/**
 * The CLI as its own process (from the TypeScript sources), for what only a real process shows:
 * pino writes console logs straight to file descriptor 2.
 */
export function cliProcess(home: TrustHome, argv: readonly string[]): Promise<CliOutcome> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [VITE_NODE, CLI_ENTRY, "--", ...argv], { cwd: home.dir, env: home.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", fail);
    child.once("close", (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}
