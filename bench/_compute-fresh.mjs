// A just-started process's compute, for bench/compute.mjs: one mode of the worker engine in a process of its
// own, the same short CPU-bound run 40 times back to back. V8 compiles QuickJS's hot wasm functions with
// TurboFan in the background once they are hot, and has no on-stack replacement for wasm: a run whose
// interpreter frame was entered before that compile finished computes on baseline (Liftoff) code to its end.
// Run as a child (`node bench/_compute-fresh.mjs <dist> <mode>`); prints JSON.
import { loadavg } from "node:os";

const RUNS = 40;
const ITERATIONS = 300_000;

export async function freshProcessRuns(dist, mode) {
  const { createQuickJsEngine } = await import(`${dist}src/sandbox/engines/quickjs.js`);
  const engine = await createQuickJsEngine({ workerMode: mode });
  const loadBefore = loadavg()[0];
  const origin = performance.now();
  const runs = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const result = await engine.run({ code: `let s = ${run}; for (let i = 0; i < ${ITERATIONS}; i++) { s = (s * 31 + i) % 1000003; } return s;`, limits: { cpuMs: 60_000, wallMs: 60_000 } });
      if (!result.ok) throw new Error(`benchmark run failed: ${result.error.code}: ${result.error.message}`);
      runs.push({ at: started - origin, ms: performance.now() - started });
    }
  } finally {
    await engine.dispose();
  }
  const cpu = process.cpuUsage();
  return { mode, iterations: ITERATIONS, runs, processCpuMs: (cpu.user + cpu.system) / 1000, loadBefore, loadAfter: loadavg()[0] };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [dist, mode] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(await freshProcessRuns(dist, mode))}\n`);
  process.exit(0);
}
