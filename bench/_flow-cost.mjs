// Profiling aid (not a benchmark): what the information-flow guard (src/mcp/flow) and the service's
// other per-call checks add to a guest echo call on server-everything, CPU and wall per call, by
// calling the module function a run's host calls reach with and without a run scope (the guard keeps
// its labels there: without one it is skipped), beside the client manager's callTool alone.
// Interleaved rounds, order reversed every other round.
//   node bench/_flow-cost.mjs [calls=1000] [rounds=8] [warm-up rounds=3] [message: short|long]
import { loadavg } from "node:os";
import { createRunScope } from "../dist/src/sandbox/types.js";
import { echoLoopCode, median, openEchoHost, timeRounds } from "./_echo-host.mjs";

const [N, ROUNDS, WARM] = [Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 8), Number(process.argv[4] ?? 3)];
// long: a message of 40 characters, so every argument is searched for windows of earlier results.
const LONG = process.argv[5] === "long";
const message = (i) => (LONG ? `a longer message to send back, number ${i}` : `ping ${i}`);
const inline = await openEchoHost("quickjs-inline", "mcpvm-flow-cost-");
const must = (r) => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
};
must(await inline.host.run(echoLoopCode(1)));
const service = await inline.host.requireMcp();
const loaded = await inline.host.hostModules();
const signal = new AbortController().signal;
const module = await loaded.modules["mcp-everything"].load({ signal, deadline: Date.now() + 3_600_000 });
await new Promise((resolve) => setTimeout(resolve, 2_100)); // past the approvals file's racy window
const ctx = (scope) => ({ module: "mcp-everything", fn: "echo", signal, deadline: Date.now() + 600_000, ...(scope === undefined ? {} : { scope }) });
const steps = {
  converted: async () => {
    for (let i = 0; i < N; i++) await service.clients.callTool("everything", "echo", { message: message(i) }, {});
  },
  module: async () => {
    const c = ctx(undefined);
    for (let i = 0; i < N; i++) await module.echo([{ message: message(i) }], c);
  },
  guarded: async () => {
    // One scope per loop, as one run: the labels of its earlier calls are searched by its later ones.
    const c = ctx(createRunScope(echoLoopCode(N)));
    for (let i = 0; i < N; i++) await module.echo([{ message: message(i) }], c);
  },
};
for (let w = 0; w < WARM; w++) for (const fn of Object.values(steps)) await fn();
const samples = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
const load = loadavg()[0];
await timeRounds(steps, ROUNDS, (_, row) => {
  for (const [key, { wallMs, cpuMs }] of Object.entries(row)) samples[key].push({ wall: (wallMs / N) * 1000, cpu: (cpuMs / N) * 1000 });
});
console.log(`load ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}; ${N} calls (${LONG ? "long" : "short"} messages), ${ROUNDS} rounds after ${WARM} warm-up rounds; µs per call (median)`);
for (const [key, s] of Object.entries(samples)) console.log(`${key.padEnd(10)} cpu ${median(s.map((x) => x.cpu)).toFixed(1).padStart(7)}   wall ${median(s.map((x) => x.wall)).toFixed(1).padStart(7)}   cpus ${s.map((x) => x.cpu.toFixed(0)).join(" ")}`);
await inline.host.close();
await inline.cleanup();
