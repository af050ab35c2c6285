// Profiling aid (not a benchmark): the layers of a guest echo call (as bench/mcp.mjs "Where a guest
// call's µs go"), after a long warm-up, for both engines, CPU and wall per call, interleaved rounds.
//   node bench/_percall-layers.mjs [calls=1000] [rounds=6] [warm-up rounds=6]
import { loadavg } from "node:os";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { EVERYTHING, echoLoopCode as code, median, openEchoHost, timeRounds } from "./_echo-host.mjs";

const [N, ROUNDS, WARM] = [Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 6), Number(process.argv[4] ?? 6)];
const ONLY = process.argv[5]?.split(",");

const open = (engine) => openEchoHost(engine, "mcpvm-layers-");
const must = (r) => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
};
const worker = await open("quickjs");
const inline = await open("quickjs-inline");
must(await inline.host.run(code(1)));
const service = await inline.host.requireMcp();
const loaded = await inline.host.hostModules();
const signal = new AbortController().signal;
const module = await loaded.modules["mcp-everything"].load({ signal, deadline: Date.now() + 3_600_000 });
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
await new Promise((resolve) => setTimeout(resolve, 2_100)); // past the approvals file's racy window
const args = (i) => ({ message: `ping ${i}` });
const loop = (fn) => async () => {
  for (let i = 0; i < N; i++) await fn(i);
};
const steps = {
  direct: loop((i) => client.callTool({ name: "echo", arguments: args(i) })),
  raw: loop((i) => service.clients.callToolRaw("everything", "echo", args(i), {})),
  converted: loop((i) => service.clients.callTool("everything", "echo", args(i), {})),
  module: loop((i) => module.echo([args(i)], { module: "mcp-everything", fn: "echo", signal, deadline: Date.now() + 600_000 })),
  inline: async () => must(await inline.host.run(code(N))),
  worker: async () => must(await worker.host.run(code(N))),
};
for (const key of Object.keys(steps)) if (ONLY !== undefined && !ONLY.includes(key)) delete steps[key];
for (let w = 0; w < WARM; w++) for (const fn of Object.values(steps)) await fn();
const samples = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
const load = loadavg()[0];
await timeRounds(steps, ROUNDS, (_, row) => {
  for (const [key, { wallMs, cpuMs }] of Object.entries(row)) samples[key].push({ wall: (wallMs / N) * 1000, cpu: (cpuMs / N) * 1000 });
});
console.log(`load ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}; ${N} calls, ${ROUNDS} rounds after ${WARM} warm-up rounds; µs per call (median)`);
for (const [key, s] of Object.entries(samples)) console.log(`${key.padEnd(10)} cpu ${median(s.map((x) => x.cpu)).toFixed(0).padStart(5)}   wall ${median(s.map((x) => x.wall)).toFixed(0).padStart(5)}   walls ${s.map((x) => x.wall.toFixed(0)).join(" ")}`);
await client.close();
for (const h of [worker, inline]) {
  await h.host.close();
  await h.cleanup();
}
