// Two builds of the QuickJS engine side by side, interleaved in rounds (so load from other work falls
// on both alike): new engine (create + run + dispose), warm run, back-to-back runs, host-call cost.
// Usage: [ENGINE=quickjs-inline] node bench/_sandbox-compare.mjs <dist-before> <dist-after>   (each a directory holding a
// `npm run build` output, e.g. a copy of dist/ made before a change). Not part of `npm run bench`.
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [beforeDir, afterDir] = process.argv.slice(2);
if (beforeDir === undefined || afterDir === undefined) {
  console.error("usage: node bench/_sandbox-compare.mjs <dist-before> <dist-after>");
  process.exit(2);
}
const dists = { before: beforeDir, after: afterDir };
const create = {};
// ENGINE=quickjs-inline compares the in-thread engine instead of the worker engine.
const inline = process.env.ENGINE === "quickjs-inline";
for (const [name, dir] of Object.entries(dists)) {
  const engines = await import(pathToFileURL(resolve(dir, `src/sandbox/engines/${inline ? "quickjs-inline" : "quickjs"}.js`)).href);
  create[name] = inline ? (options) => engines.createQuickJsInlineEngine({ maxInstances: options.maxWorkers }) : engines.createQuickJsEngine;
}
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const p = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const samples = {};
const add = (name, measure, value) => ((samples[name] ??= {})[measure] ??= []).push(value);
const mustRun = async (engine, request) => {
  const result = await engine.run(request);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
};
let runs = 0;
// A new text each run: the engines cache the transform of recent scripts (guest/transform-cache.ts).
const trivial = () => ({ code: `return 1; // run ${++runs}` });
const calls = 2000;
const modules = { bench: { noop: () => null } };
const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${calls}; i++) { ${body} } return 0;`;

const live = {};
for (const name of Object.keys(dists)) {
  live[name] = await create[name]({ warmWorkers: 1 });
  for (let i = 0; i < 30; i++) await mustRun(live[name], trivial());
}
const loadBefore = loadavg();
for (let round = 0; round < 8; round++) {
  for (const name of round % 2 === 0 ? ["before", "after"] : ["after", "before"]) {
    const engine = live[name];
    for (let i = 0; i < 3; i++) {
      await sleep(10);
      const started = performance.now();
      const fresh = await create[name]({ warmWorkers: 1 });
      await mustRun(fresh, trivial());
      await fresh.dispose();
      add(name, "new engine: create + run + dispose (ms)", performance.now() - started);
    }
    for (let i = 0; i < 10; i++) {
      await sleep(10);
      const started = performance.now();
      await mustRun(engine, trivial());
      add(name, "warm run (ms)", performance.now() - started);
    }
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      await mustRun(engine, trivial());
      add(name, "back to back (ms)", performance.now() - started);
    }
    const withStart = performance.now();
    await mustRun(engine, { code: loop("m.noop();"), modules });
    const withCalls = performance.now() - withStart;
    const withoutStart = performance.now();
    await mustRun(engine, { code: loop("void i;"), modules });
    add(name, "host call (µs)", ((withCalls - (performance.now() - withoutStart)) * 1000) / calls);
  }
}
for (const engine of Object.values(live)) await engine.dispose();
console.log(`load average ${loadBefore.map((l) => l.toFixed(2)).join(" / ")} at start, ${loadavg().map((l) => l.toFixed(2)).join(" / ")} at end`);
console.log("| measure | before p50 (p95) | after p50 (p95) |\n| --- | --- | --- |");
for (const measure of Object.keys(samples.before)) {
  const cell = (name) => `${p(samples[name][measure], 0.5).toFixed(3)} (${p(samples[name][measure], 0.95).toFixed(3)})`;
  console.log(`| ${measure} | ${cell("before")} | ${cell("after")} |`);
}
process.exit(0);
