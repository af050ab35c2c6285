// A/B of the sandbox crossing alone (issue 15): a guest loop of host calls to a trivial host function,
// minus the same loop without them, per call, on several builds of the engines in one process, rounds
// interleaved (order rotating). CPU is this process's user+system time (all threads).
// Usage: node bench/_crossing-ab.mjs <engine: quickjs-inline|quickjs> <calls> <rounds> <dist> <dist> [<dist>…]
// (each dist: a directory holding a built tree, e.g. a copy of dist/ taken before a change, and dist).
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { summarize } from "./_stats.mjs";

const [ENGINE, CALLS, ROUNDS, ...DIRS] = process.argv.slice(2);
const calls = Number(CALLS);
const builds = {};
for (const dir of DIRS) {
  const name = dir;
  const url = (file) => pathToFileURL(resolve(dir, "src/sandbox/engines", file)).href;
  const engine =
    ENGINE === "quickjs"
      ? await (await import(url("quickjs.js"))).createQuickJsEngine({ warmWorkers: 1 })
      : await (await import(url("quickjs-inline.js"))).createQuickJsInlineEngine({});
  builds[name] = engine;
}
const modules = { bench: { noop: () => "ok" } };
const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${calls}; i++) { ${body} } return 0;`;
async function timed(engine, code) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await engine.run({ code, modules });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}
async function perCall(engine) {
  const withCalls = await timed(engine, loop('m.noop("x");'));
  const without = await timed(engine, loop("void i;"));
  return { wall: ((withCalls.wall - without.wall) * 1000) / calls, cpu: ((withCalls.cpu - without.cpu) * 1000) / calls };
}
for (const engine of Object.values(builds)) for (let i = 0; i < 3; i++) await perCall(engine);
const load = loadavg()[0];
const samples = Object.fromEntries(DIRS.map((dir) => [dir, { wall: [], cpu: [] }]));
for (let r = 0; r < Number(ROUNDS); r++) {
  for (const name of DIRS.map((_, i) => DIRS[(i + r) % DIRS.length])) {
    const s = await perCall(builds[name]);
    samples[name].wall.push(s.wall);
    samples[name].cpu.push(s.cpu);
  }
}
console.log(`${ENGINE}, ${calls} calls × ${ROUNDS} rounds, load ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`);
for (const name of DIRS) {
  const w = summarize(samples[name].wall);
  const c = summarize(samples[name].cpu);
  console.log(`${name}: wall p50 ${w.p50.toFixed(1)} µs (p95 ${w.p95.toFixed(1)}), cpu p50 ${c.p50.toFixed(1)} µs per host call`);
}
for (const engine of Object.values(builds)) await engine.dispose();
