// 300 sequential guest echo calls on server-everything: worker engine vs in-thread engine vs direct
// SDK calls, interleaved rounds, wall and this process's CPU (CPU moves far less with machine load).
// Run after `npx tsc -p tsconfig.build.json`: node bench/_inline-echo.mjs [calls=300] [rounds=8] [warm-up runs=10]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const N = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 8);

async function open(engine) {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-inline-echo-"));
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
const hosts = { quickjs: await open("quickjs"), "quickjs-inline": await open("quickjs-inline") };
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
const WARMUP = Number(process.argv[4] ?? 10);
for (const fn of Object.values(cases)) for (let i = 0; i < WARMUP; i++) await fn();
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, { wall: [], cpu: [] }]));
const load = loadavg()[0];
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(cases);
  if (round % 2 === 1) order.reverse();
  for (const key of order) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await cases[key]();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    samples[key].wall.push(wall);
    samples[key].cpu.push((c.user + c.system) / 1000);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = {};
for (const [key, s] of Object.entries(samples)) out[key] = { wallMs: median(s.wall), cpuMs: median(s.cpu) };
for (const key of Object.keys(hosts)) out[key].ratio = out[key].wallMs / out.direct.wallMs;
console.log(JSON.stringify({ calls: N, rounds: ROUNDS, loadAtStart: load, ...out }, null, 1));
await client.close();
for (const { host, cleanup } of Object.values(hosts)) {
  await host.close();
  await cleanup();
}
