// Profiling aid (not a benchmark): a guest loop of trivial host calls on one engine, for a profiler
// to look at both threads of the worker engine. V8's profiles (--cpu-prof writes one per thread,
// workers included) weigh samples by wall time, so a thread switched out inside a syscall charges
// that wait to the JS frame above it; perf counts CPU only, and with --perf-basic-prof names JS and
// wasm frames:
//   perf record -e cpu-clock -F 20000 -g node --perf-basic-prof bench/_hostcall-loop.mjs dist 2000 40 shared
//   perf script -F tid,time,ip,sym   (then group by thread, skipping the first seconds: V8 tiers the wasm up)
// Usage: node bench/_hostcall-loop.mjs [dist=dist] [calls=2000] [runs=20] [mode: shared|thread|inline]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2] ?? "dist";
const calls = Number(process.argv[3] ?? 2000);
const runs = Number(process.argv[4] ?? 20);
const mode = process.argv[5] ?? "shared";
const url = (file) => pathToFileURL(resolve(dir, "src/sandbox/engines", file)).href;
const engine =
  mode === "inline"
    ? await (await import(url("quickjs-inline.js"))).createQuickJsInlineEngine({})
    : await (await import(url("quickjs.js"))).createQuickJsEngine({ warmWorkers: 1, workerMode: mode });
const modules = { bench: { noop: () => "ok" } };
const code = `const m = require("host:bench"); for (let i = 0; i < ${calls}; i++) { m.noop("x"); } return 0;`;
for (let i = 0; i < 3; i++) await engine.run({ code, modules });
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < runs; i++) {
  const r = await engine.run({ code, modules });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
}
const c = process.cpuUsage(c0);
console.log(`${mode}: wall ${(((performance.now() - t0) * 1000) / (calls * runs)).toFixed(1)} µs/call, cpu ${((c.user + c.system) / (calls * runs)).toFixed(1)} µs/call (all threads)`);
await engine.dispose();
