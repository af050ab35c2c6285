import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach } from "vitest";
import { ClientManager, type ClientManagerOptions, type ClientManagerEvent } from "../../../src/mcp/client-manager/index.js";
import { DEFAULT_SERVER_LIMITS, type McpServerLaunch, type McpServerLimits } from "../../../src/mcp/types.js";
export { childPids, isAlive } from "../../support/processes.js";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, "..", "..", "..");
export const FIXTURE = join(ROOT, "tests", "fixtures", "servers", "fixture-server.mjs");
export const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
export const MEMORY = join(ROOT, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js");

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "mcpvm-cm-"));
}

/** A file the fixture appends "pid time modes" to at every start. */
export function startsFile(): string {
  return join(tempDir(), "starts.log");
}

export function readStarts(file: string): { pid: number; time: number }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const [pid, time] = line.split(" ");
      return { pid: Number(pid), time: Number(time) };
    });
}

export function stdioLaunch(
  name: string,
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; limits?: Partial<McpServerLimits>; secrets?: string[] } = {},
): McpServerLaunch {
  return {
    name,
    transport: "stdio",
    command,
    args,
    env: options.env ?? {},
    limits: { ...DEFAULT_SERVER_LIMITS, ...options.limits },
    secrets: options.secrets ?? [],
  };
}

/** The fixture server over stdio, recording its starts in `starts`. */
export function fixture(
  name: string,
  args: readonly string[],
  options: { starts?: string; env?: Record<string, string>; limits?: Partial<McpServerLimits>; secrets?: string[] } = {},
): McpServerLaunch {
  const env = { ...(options.starts === undefined ? {} : { MCPVM_FIXTURE_STARTS: options.starts }), ...options.env };
  return stdioLaunch(name, process.execPath, [FIXTURE, ...args], { ...options, env });
}

export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, stepMs = 20): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** A manager over launches (resolved as given), recording every event. */
export function managerFor(launches: readonly McpServerLaunch[], options: Partial<ClientManagerOptions> = {}): { manager: ClientManager; events: ClientManagerEvent[] } {
  const servers: Record<string, () => Promise<McpServerLaunch>> = {};
  for (const launch of launches) servers[launch.name] = async () => launch;
  const manager = new ClientManager({ logger: { warn: () => undefined }, ...options, servers: { ...servers, ...options.servers } });
  const events: ClientManagerEvent[] = [];
  manager.subscribe((event) => events.push(event));
  return { manager, events };
}

export async function expectRejection(promise: Promise<unknown>): Promise<{ name: string; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; code: string; message: string };
    return { name: e.name, code: e.code, message: e.message };
  }
  throw new Error("expected a rejection");
}

/** The fixture as a network server (http or sse); resolves with its URL. Stop it with stop(). */
export async function startNetworkFixture(args: readonly string[]): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`fixture exited with ${code}`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  return { url, child, stop };
}

/** Registers an afterEach that closes every manager the test tracked; returns `track`, which passes its argument through. */
export function closeManagersAfterEach(): <T extends { manager: ClientManager }>(made: T) => T {
  const managers: ClientManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.closeAll()));
  });
  return (made) => {
    managers.push(made.manager);
    return made;
  };
}
