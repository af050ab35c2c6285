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
 * What one yield costs, on an asyncify instance directly: an empty loop (so that the checks, not the
 * compute, take the time) interrupted at its 2,000th interrupt check, its handler never yielding, then
 * yielding at every check to the next turn of the event loop; at the top of the stack and 10 guest
 * frames deep (asyncify saves and restores every frame's wasm locals, and QuickJS's interpreter
 * function has many). Per yield = (CPU yielding - CPU not) / checks, the process's CPU time.
 */
async function yieldCost(dist) {
  const { newInlineInstance } = await import(`${dist}src/sandbox/engines/quickjs-inline-adapter.js`);
  const { loadInlineAssets } = await import(`${dist}src/sandbox/engines/quickjs-inline-assets.js`);
  const instance = await newInlineInstance(await loadInlineAssets(), 64 * 1024 * 1024);
  const runtime = instance.newRuntime();
  const context = runtime.newContext();
  const CHECKS = 2000;
  let yielding = false;
  let checks = 0;
  instance.setInterruptHandler(runtime, (mayYield) => {
    if (++checks >= CHECKS) return true;
    return mayYield && yielding ? new Promise((resolve) => setImmediate(() => resolve(false))) : false;
  });
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const run = async (depth) => {
    checks = 0;
    const started = cpuMs();
    const result = await instance.evalCode(context, `function deep(d) { if (d > 0) return deep(d - 1); for (;;) {} } deep(${depth})`, "yield-cost.js");
    (result.value ?? result.error).dispose();
    return cpuMs() - started;
  };
  try {
    const rows = [];
    for (const depth of [0, 10]) {
      const times = { still: [], yielding: [] };
      for (let round = 0; round < 12; round++) {
        // Alternating which goes first, so that a burst of other work on the machine falls on both alike.
        for (const mode of round % 2 === 0 ? ["still", "yielding"] : ["yielding", "still"]) {
          yielding = mode === "yielding";
          const ms = await run(depth);
          if (round >= 2) times[mode].push(ms);
        }
      }
      const still = summarize(times.still).p50;
      const moving = summarize(times.yielding).p50;
      rows.push({ depth, checks: CHECKS, stillMs: still, yieldingMs: moving, perYieldUs: ((moving - still) * 1000) / CHECKS });
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
