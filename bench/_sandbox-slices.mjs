// What the in-thread engine's time slices cost and buy (src/sandbox/engines/quickjs-yield.ts), for the
// "Sandbox engines" section of bench/sandbox.mjs. A CPU-bound guest runs with each slice length, in
// interleaved rounds: its wall time and the process's CPU time (the cost of yielding: every yield
// unwinds and rewinds the wasm stack and waits one turn of the event loop) and the longest the main thread's event loop went
// without a turn meanwhile (what a signal, a timer or an HTTP request waits for). Slice 0 never yields.
import { setImmediate } from "node:timers";
import { summarize } from "./_stats.mjs";
import { mustRun } from "./_sandbox-engines.mjs";

/** The engine's default (src/sandbox/engines/quickjs-yield.ts), for the per-slice cost. */
export const DEFAULT_SLICE_MS = 5;
export const SLICES_MS = (process.env.MCPVM_BENCH_SLICES ?? "0,0.001,2,5,10,20").split(",").map(Number);
const ROUNDS = 12;
const ITERATIONS = 3_000_000;

/** Runs `code` on `engine` while timing the gaps between turns of this thread's event loop. */
async function runWatched(engine, code) {
  let last = performance.now();
  let longest = 0;
  let turns = 0;
  let watching = true;
  const watch = () => {
    turns++;
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (watching) setImmediate(watch);
  };
  setImmediate(watch);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await mustRun(engine, { code, limits: { cpuMs: 60_000, wallMs: 60_000 } });
  const ended = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  watching = false;
  // The stretch since the last turn counts too (without yields, the whole compute is one such stretch).
  return { wallMs: ended - started, processCpuMs: (cpu.user + cpu.system) / 1000, longestGapMs: Math.max(longest, ended - last), turns };
}

/**
 * What one yield costs, on an asyncify instance directly: the same loop with its interrupt handler
 * never yielding, then yielding at every check (to the next turn of the event loop), at the top of
 * the stack and 10 guest frames deep (asyncify saves and restores every frame's wasm locals, and
 * QuickJS's interpreter function has many). Per yield = (time yielding - time not) / checks.
 */
async function yieldCost(dist) {
  const { newInlineInstance } = await import(`${dist}src/sandbox/engines/quickjs-inline-adapter.js`);
  const { loadInlineAssets } = await import(`${dist}src/sandbox/engines/quickjs-inline-assets.js`);
  const instance = await newInlineInstance(await loadInlineAssets(), 64 * 1024 * 1024);
  const runtime = instance.newRuntime();
  const context = runtime.newContext();
  let yielding = false;
  let checks = 0;
  instance.setInterruptHandler(runtime, (mayYield) => {
    checks++;
    return mayYield && yielding ? new Promise((resolve) => setImmediate(() => resolve(false))) : false;
  });
  const code = (depth, k) => `function deep(d) { if (d > 0) return deep(d - 1); let s = ${k}; for (let i = 0; i < 2000000; i++) s = (s * 31 + i) % 1000003; return s; } deep(${depth})`;
  const run = async (depth, k) => {
    checks = 0;
    const started = performance.now();
    const result = await instance.evalCode(context, code(depth, k), "yield-cost.js");
    (result.value ?? result.error).dispose();
    return performance.now() - started;
  };
  try {
    const rows = [];
    for (const depth of [0, 10]) {
      const times = { still: [], yielding: [] };
      for (let round = 0; round < 10; round++) {
        for (const mode of ["still", "yielding"]) {
          yielding = mode === "yielding";
          const ms = await run(depth, round);
          if (round >= 2) times[mode].push(ms);
        }
      }
      const still = summarize(times.still).p50;
      const moving = summarize(times.yielding).p50;
      rows.push({ depth, checks, stillMs: still, yieldingMs: moving, perYieldUs: ((moving - still) * 1000) / checks });
    }
    return rows;
  } finally {
    context.dispose();
    runtime.dispose();
  }
}

export async function sliceCost(dist) {
  const perYield = await yieldCost(dist);
  const { createQuickJsInlineEngine } = await import(`${dist}src/sandbox/engines/quickjs-inline.js`);
  const engines = [];
  for (const sliceMs of SLICES_MS) engines.push(await createQuickJsInlineEngine({ sliceMs }));
  const code = (round) => `let s = ${round}; for (let i = 0; i < ${ITERATIONS}; i++) { s = (s * 31 + i) % 1000003; } return s;`;
  try {
    // Warm-up: V8 tiers the asyncify build's code up during the first runs.
    for (const engine of engines) for (let i = 0; i < 3; i++) await runWatched(engine, code(i));
    const samples = engines.map(() => ({ wall: [], cpu: [], gap: [], turns: [] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, engine] of engines.entries()) {
        const { wallMs, processCpuMs, longestGapMs, turns } = await runWatched(engine, code(round));
        samples[index].turns.push(turns);
        samples[index].wall.push(wallMs);
        samples[index].cpu.push(processCpuMs);
        samples[index].gap.push(longestGapMs);
      }
    }
    const base = { wall: summarize(samples[0].wall).p50, cpu: summarize(samples[0].cpu).p50 };
    const bySlice = SLICES_MS.map((sliceMs, index) => {
      const wall = summarize(samples[index].wall);
      const cpu = summarize(samples[index].cpu);
      return { sliceMs, wall, cpu, wallRatio: wall.p50 / base.wall, cpuRatio: cpu.p50 / base.cpu, gap: summarize(samples[index].gap), turns: summarize(samples[index].turns) };
    });
    return { perYield, bySlice };
  } finally {
    await Promise.all(engines.map((engine) => engine.dispose()));
  }
}
