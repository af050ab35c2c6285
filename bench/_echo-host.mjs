// Shared by the per-call profiling aids (_inline-echo, _percall-curve, _percall-layers): a host whose
// only server is server-everything, approved, opened again the way a session finds it; the guest's
// echo loop; and interleaved timing rounds (wall and this process's CPU, order reversed every other round).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

/**
 * A host on `engine` with server-everything approved; `cleanup` removes its home. `Host` is this
 * tree's McpvmHost unless another build's is given (bench/_percall-before-after.mjs).
 */
export async function openEchoHost(engine, prefix = "mcpvm-echo-", Host = McpvmHost) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const config = { engine, plugins: { mcp: { enabled: true } }, mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  let host = await Host.open({ env });
  await host.plugins.approve("mcp");
  await (await host.requireMcp()).approve("everything");
  await host.close();
  host = await Host.open({ env });
  return { host, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A guest script making `n` sequential echo calls. */
export const echoLoopCode = (n) => `const e = require("host:mcp-everything"); for (let i = 0; i < ${n}; i++) e.echo({ message: "ping " + i }); return ${n};`;

/** `n` direct SDK echo calls on a server of its own, and a guest run of `n` calls on each host; close `client` after. */
export async function echoCases(hosts, n) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
  const runOn = (host) => async () => {
    const r = await host.run(echoLoopCode(n));
    if (!r.ok || r.value !== n) throw new Error(`run failed: ${JSON.stringify(r.error)}`);
  };
  const cases = {
    direct: async () => {
      for (let i = 0; i < n; i++) await client.callTool({ name: "echo", arguments: { message: `ping ${i}` } });
    },
    ...Object.fromEntries(Object.entries(hosts).map(([kind, { host }]) => [kind, runOn(host)])),
  };
  return { client, cases };
}

/** Each case once per round, interleaved; `onRound(round, { key: { wallMs, cpuMs } })` sees every round. */
export async function timeRounds(cases, rounds, onRound) {
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(cases);
    if (round % 2 === 1) order.reverse();
    const row = {};
    for (const key of order) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await cases[key]();
      const wallMs = performance.now() - t0;
      const c = process.cpuUsage(c0);
      row[key] = { wallMs, cpuMs: (c.user + c.system) / 1000 };
    }
    onRound(round, row);
  }
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
