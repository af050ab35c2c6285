import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { McpvmHost } from "../../src/host/index.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const MEMORY = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
export const FIXTURE = join(ROOT, "tests/fixtures/servers/fixture-server.mjs");
export const VITE_NODE = join(ROOT, "node_modules/vite-node/vite-node.mjs");
export const SERVE_ENTRY = join(ROOT, "tests/gateway/fixtures/serve-entry.ts");

export interface TestHome {
  readonly dir: string;
  readonly env: Record<string, string>;
  cleanup(): Promise<void>;
}

export interface HomeOptions {
  readonly servers: Record<string, Record<string, unknown>>;
  /** Servers to approve (default: all). */
  readonly approve?: readonly string[];
  readonly gateway?: Record<string, unknown>;
  readonly mcp?: Record<string, unknown>;
}

export const everythingServer = () => ({ command: process.execPath, args: [EVERYTHING, "stdio"] });
export const memoryServer = (dir: string) => ({ command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } });
export const fixtureServer = (startsFile: string, args = "") => ({ command: process.execPath, args: [FIXTURE], env: { MCPVM_FIXTURE_STARTS: startsFile, MCPVM_FIXTURE_ARGS: args } });

/** A config home in a temp dir: config.json written, the mcp plugin approved, the chosen servers approved. */
export async function makeHome(options: HomeOptions): Promise<TestHome> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-gw-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const config = {
    plugins: { mcp: { enabled: true, config: { callsPerSecond: 10_000, ...options.mcp } } },
    mcpServers: options.servers,
    ...(options.gateway === undefined ? {} : { gateway: options.gateway }),
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  try {
    await host.plugins.approve("mcp");
    const service = await host.requireMcp();
    for (const name of options.approve ?? Object.keys(options.servers)) await service.approve(name);
  } finally {
    await host.close();
  }
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The text of a tool result's first content item. */
export function firstText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  const first = content?.[0];
  return first?.type === "text" ? (first.text ?? "") : "";
}

export function jsonOf<T = Record<string, unknown>>(result: unknown): T {
  return JSON.parse(firstText(result)) as T;
}

/** Polls a condition (bounded), for notifications that arrive asynchronously. */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
