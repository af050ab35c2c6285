// What bench/mcp.mjs and its parts share: config homes with every server approved, the servers used,
// and small helpers for runs.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpvmHost } from "../dist/src/host/index.js";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, "..");
export const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
export const FIXTURE = join(ROOT, "tests", "fixtures", "servers", "fixture-server.mjs");

/** A config home with the mcp plugin approved and enabled and every server approved. */
export async function makeHome(servers, engine = "quickjs") {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-bench-mcp-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  // The defaults a user gets: no rate limit, the default tool-call budget (1,000 per run).
  const config = { engine, plugins: { mcp: { enabled: true } }, mcpServers: servers };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  try {
    await host.plugins.approve("mcp");
    const service = await host.requireMcp();
    for (const name of Object.keys(servers)) await service.approve(name);
  } finally {
    await host.close();
  }
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Waits out the approvals file's racy window (RACY_WINDOW_MS, src/mcp/service/approval-recheck.ts):
 * makeHome wrote it moments ago, so until then every call re-reads it in full, as no real session
 * does (a person approves a server once, long before a script's calls).
 */
export function pastRacyWindow() {
  return new Promise((resolve) => setTimeout(resolve, 2_100));
}

/** Live children of this process (Linux /proc): the servers started so far. */
export function childPids() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid && fields[0] !== "Z") pids.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return pids;
}

export function mustSucceed(result) {
  if (!result.ok) throw new Error(`bench run failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}

export const sequentialEcho = (n) => `const e = require("host:mcp-everything"); for (let i = 0; i < ${n}; i++) e.echo({ message: "ping " + i }); return ${n};`;
