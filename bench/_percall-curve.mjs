// Profiling aid (not a benchmark): per-round µs per call of N sequential echo calls, direct SDK client vs
// the worker and in-thread engines, interleaved, each on its own fresh server-everything, so the warm-up
// curves of the three paths can be compared round by round.
//   node bench/_percall-curve.mjs [calls=1000] [rounds=12] [engines=quickjs,quickjs-inline]
import { loadavg } from "node:os";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { EVERYTHING, echoLoopCode as code, openEchoHost, timeRounds } from "./_echo-host.mjs";

const N = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 12);
const ENGINES = (process.argv[4] ?? "quickjs,quickjs-inline").split(",");

const open = (engine) => openEchoHost(engine, "mcpvm-curve-");
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
await timeRounds(cases, ROUNDS, (round, row) => {
  const cell = (k) => `${((row[k].wallMs / N) * 1000).toFixed(0)} (${((row[k].cpuMs / N) * 1000).toFixed(0)})`;
  process.stdout.write(`${String(round).padStart(5)} ${Object.keys(cases).map((k) => cell(k).padStart(22)).join("")}\n`);
});
await client.close();
for (const { host, cleanup } of Object.values(hosts)) {
  await host.close();
  await cleanup();
}
