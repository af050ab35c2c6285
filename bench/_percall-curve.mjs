// Profiling aid (not a benchmark): per-round µs per call of N sequential echo calls, direct SDK client vs
// the worker and in-thread engines, interleaved, each on its own fresh server-everything, so the warm-up
// curves of the three paths can be compared round by round.
//   node bench/_percall-curve.mjs [calls=1000] [rounds=12] [engines=quickjs,quickjs-inline]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const N = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 12);
const ENGINES = (process.argv[4] ?? "quickjs,quickjs-inline").split(",");

async function open(engine) {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-curve-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const config = { engine, plugins: { mcp: { enabled: true } }, mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  let host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  await (await host.requireMcp()).approve("everything");
  await host.close();
  host = await McpvmHost.open({ env });
  return { host, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
const code = (n) => `const e = require("host:mcp-everything"); for (let i = 0; i < ${n}; i++) e.echo({ message: "ping " + i }); return ${n};`;
const hosts = Object.fromEntries(await Promise.all(ENGINES.map(async (e) => [e, await open(e)])));
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
const cases = {
  direct: async () => {
    for (let i = 0; i < N; i++) await client.callTool({ name: "echo", arguments: { message: `ping ${i}` } });
  },
  ...Object.fromEntries(
    Object.entries(hosts).map(([kind, { host }]) => [
      kind,
      async () => {
        const r = await host.run(code(N));
        if (!r.ok || r.value !== N) throw new Error(`run failed: ${JSON.stringify(r.error)}`);
      },
    ]),
  ),
};
process.stdout.write(`load ${loadavg()[0].toFixed(2)}; µs per call, wall (cpu)\nround ${Object.keys(cases).map((k) => k.padStart(22)).join("")}\n`);
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(cases);
  if (round % 2 === 1) order.reverse();
  const row = {};
  for (const key of order) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await cases[key]();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    row[key] = `${((wall / N) * 1000).toFixed(0)} (${(((c.user + c.system) / N)).toFixed(0)})`;
  }
  process.stdout.write(`${String(round).padStart(5)} ${Object.keys(cases).map((k) => row[k].padStart(22)).join("")}\n`);
}
await client.close();
for (const { host, cleanup } of Object.values(hosts)) {
  await host.close();
  await cleanup();
}
