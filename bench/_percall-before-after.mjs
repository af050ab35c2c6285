// Profiling aid (not a benchmark): this tree's guest echo call beside another build's, in one process
// and the same interleaved rounds, so a per-call change is measured against its base under the same
// load. BENCH_BEFORE_ROOT=<a copy of the package at the base commit, built (dist/src)>.
//   BENCH_BEFORE_ROOT=/tmp/base node bench/_percall-before-after.mjs [calls=1000] [rounds=8] [warm-up rounds=6]
// Cases: the direct SDK client (the baseline), then for each build the host module function alone
// ("module": the service's share) and a guest run on the in-thread and the worker engine.
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { EVERYTHING, echoLoopCode as code, median, openEchoHost, timeRounds } from "./_echo-host.mjs";

const BEFORE = process.env.BENCH_BEFORE_ROOT;
if (BEFORE === undefined) throw new Error("set BENCH_BEFORE_ROOT to a built copy of the base commit");
const [N, ROUNDS, WARM] = [Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 8), Number(process.argv[4] ?? 6)];
const HERE = join(import.meta.dirname, "..");

async function openOn(root, engine) {
  const { McpvmHost } = await import(pathToFileURL(join(root, "dist", "src", "host", "index.js")).href);
  return openEchoHost(engine, "mcpvm-before-after-", McpvmHost);
}

const must = (r) => {
  if (!r.ok || r.value !== N) throw new Error(JSON.stringify(r.error));
};
const signal = new AbortController().signal;
const args = (i) => ({ message: `ping ${i}` });
const loop = (fn) => async () => {
  for (let i = 0; i < N; i++) await fn(i);
};
const opened = [];
const cases = {};
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
cases.direct = loop((i) => client.callTool({ name: "echo", arguments: args(i) }));
for (const [name, root] of [["before", BEFORE], ["after", HERE]]) {
  const inline = await openOn(root, "quickjs-inline");
  const worker = await openOn(root, "quickjs");
  opened.push(inline, worker);
  const first = await inline.host.run(code(1));
  if (!first.ok) throw new Error(JSON.stringify(first.error));
  const module = await (await inline.host.hostModules()).modules["mcp-everything"].load({ signal, deadline: Date.now() + 3_600_000 });
  cases[`${name} module`] = loop((i) => module.echo([args(i)], { module: "mcp-everything", fn: "echo", signal, deadline: Date.now() + 600_000 }));
  cases[`${name} inline`] = async () => must(await inline.host.run(code(N)));
  cases[`${name} worker`] = async () => must(await worker.host.run(code(N)));
}
await new Promise((resolve) => setTimeout(resolve, 2_100)); // past the approvals file's racy window
for (let w = 0; w < WARM; w++) for (const fn of Object.values(cases)) await fn();
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const load = loadavg()[0];
await timeRounds(cases, ROUNDS, (_, row) => {
  for (const [key, { wallMs, cpuMs }] of Object.entries(row)) samples[key].push({ wall: (wallMs / N) * 1000, cpu: (cpuMs / N) * 1000 });
});
const med = (key, field) => median(samples[key].map((x) => x[field]));
console.log(`load ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}; ${N} calls, ${ROUNDS} rounds after ${WARM} warm-up rounds; per call, median`);
for (const key of Object.keys(cases)) {
  const ratio = (field) => (med(key, field) / med("direct", field)).toFixed(2);
  console.log(`${key.padEnd(14)} cpu ${med(key, "cpu").toFixed(0).padStart(5)} µs (${ratio("cpu")}x)   wall ${med(key, "wall").toFixed(0).padStart(5)} µs (${ratio("wall")}x, +${(med(key, "wall") - med("direct", "wall")).toFixed(0)} µs)`);
}
await client.close();
for (const h of opened) {
  await h.host.close();
  await h.cleanup();
}
