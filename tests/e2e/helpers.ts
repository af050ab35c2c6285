import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { expect } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { McpvmHost } from "../../src/host/index.js";
import type { GuestErrorInfo, RunResult } from "../../src/sandbox/types.js";
export { childPids, isAlive } from "../support/processes.js";

export const ROOT = resolve(import.meta.dirname, "../..");
const NPM = join(ROOT, "node_modules", "@modelcontextprotocol");
export const EVERYTHING = join(NPM, "server-everything", "dist", "index.js");
export const MEMORY = join(NPM, "server-memory", "dist", "index.js");
export const FILESYSTEM = join(NPM, "server-filesystem", "dist", "index.js");
export const FIXTURE = join(ROOT, "tests", "fixtures", "servers", "fixture-server.mjs");

export type ServerEntry = Record<string, unknown>;

/** `server-everything stdio` (its CLI takes the transport as its first argument). */
export const everythingServer = (): ServerEntry => ({ command: process.execPath, args: [EVERYTHING, "stdio"] });

export const memoryServer = (file: string): ServerEntry => ({ command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: file } });

/** server-filesystem takes its allowed roots as arguments. */
export const filesystemServer = (root: string): ServerEntry => ({ command: process.execPath, args: [FILESYSTEM, root] });

/** Our fixture server; every start appends a line to `starts`. `args` are fixture flags ("--mode crash --crash-after 2"). */
export function fixtureServer(starts: string, args = "", extra: ServerEntry = {}): ServerEntry {
  return { command: process.execPath, args: [FIXTURE], env: { MCPVM_FIXTURE_STARTS: starts, MCPVM_FIXTURE_ARGS: args }, ...extra };
}

export type Servers = Readonly<Record<string, ServerEntry>>;

export interface HomeOptions {
  /** mcpServers, or a function of the home folder for servers that keep files there. */
  readonly servers: Servers | ((dir: string) => Servers);
  /** Servers approved during set-up (default: every configured server). */
  readonly approve?: readonly string[];
  /** plugins.mcp.config. */
  readonly mcp?: Readonly<Record<string, unknown>>;
  /** Approve and enable the mcp plugin (default true). */
  readonly mcpPlugin?: boolean;
}

export interface E2eHome {
  /** MCPVM_HOME; also a scratch folder for servers' files. */
  readonly dir: string;
  readonly env: Record<string, string>;
  /** A starts file for the fixture server, in this home. */
  startsFile(name: string): string;
  open(): Promise<McpvmHost>;
  cleanup(): Promise<void>;
}

/**
 * A config home in a temp dir: config.json with the servers, the mcp plugin approved and enabled,
 * the chosen servers approved. Set-up goes through the same host API the CLI uses and starts no server.
 */
export async function makeHome(options: HomeOptions): Promise<E2eHome> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-e2e-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const withPlugin = options.mcpPlugin !== false;
  const servers = typeof options.servers === "function" ? options.servers(dir) : options.servers;
  const config = {
    // CI machines cannot boot Hyperlight VMs (see DESIGN.md); quickjs also skips the probe.
    engine: "quickjs",
    plugins: { mcp: { enabled: withPlugin, config: { ...options.mcp } } },
    mcpServers: servers,
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
  const home: E2eHome = {
    dir,
    env,
    startsFile: (name) => join(dir, `${name}.starts`),
    open: () => McpvmHost.open({ env }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
  if (!withPlugin) return home;
  const host = await home.open();
  try {
    await host.plugins.approve("mcp");
    const service = await host.requireMcp();
    for (const name of options.approve ?? Object.keys(servers)) await service.approve(name);
  } finally {
    await host.close();
  }
  return home;
}

/** One line per start of a fixture server ("<pid> <ms> <modes>"). */
export function readStarts(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => Number(line.split(" ")[0]));
}

/** Polls (bounded) for something that happens asynchronously, such as a child's exit. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The value of a run that must succeed; a failure shows the guest error in the assertion. */
export function valueOf(result: RunResult): unknown {
  expect(result.ok ? "ok" : result.error).toBe("ok");
  return (result as RunResult & { ok: true }).value;
}

/** The error of a run that must fail. */
export function errorOf(result: RunResult): GuestErrorInfo {
  expect(result.ok, result.ok ? `expected a failure, got ${JSON.stringify(result.value)}` : "").toBe(false);
  return (result as RunResult & { ok: false }).error;
}

export interface CliOutput {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `mcpvm <argv>` in-process against this home, stdin closed (no TTY: nothing can be asked). */
export async function cli(home: E2eHome, argv: readonly string[], stdinText = ""): Promise<CliOutput> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk));
  stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const code = await runCli(argv, { stdin: Readable.from([stdinText]), stdout, stderr, env: home.env, cwd: home.dir });
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}
