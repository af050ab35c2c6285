// Profiling aid (not a benchmark): per-round µs per call of N sequential echo calls, direct SDK client vs
// the worker and in-thread engines, interleaved, each on its own fresh server-everything, so the warm-up
// curves of the three paths can be compared round by round.
//   node bench/_percall-curve.mjs [calls=1000] [rounds=12] [engines=quickjs,quickjs-inline]
import { loadavg } from "node:os";
import { echoCases, openEchoHost, timeRounds } from "./_echo-host.mjs";

const N = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 12);
const ENGINES = (process.argv[4] ?? "quickjs,quickjs-inline").split(",");

const open = (engine) => openEchoHost(engine, "mcpvm-curve-");
const hosts = Object.fromEntries(await Promise.all(ENGINES.map(async (e) => [e, await open(e)])));
const { client, cases } = await echoCases(hosts, N);
process.stdout.write(`load ${loadavg()[0].toFixed(2)}; µs per call, wall (cpu)\nround ${Object.keys(cases).map((k) => k.padStart(22)).join("")}\n`);
await timeRounds(cases, ROUNDS, (round, row) => {
  const cell = (k) => `${((row[k].wallMs / N) * 1000).toFixed(0)} (${((row[k].cpuMs / N) * 1000).toFixed(0)})`;
  process.stdout.write(`${String(round).padStart(5)} ${Object.keys(cases).map((k) => cell(k).padStart(22)).join("")}\n`);
});
await client.close();
for (const { host, cleanup } of Object.values(hosts)) {
  await host.close();
  await cleanup();
}
