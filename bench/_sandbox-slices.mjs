// What the in-thread engine's time slices cost and buy (src/sandbox/engines/quickjs-yield.ts), for the
// "Sandbox engines" section of bench/sandbox.mjs. A CPU-bound guest runs with each slice length, in
// interleaved rounds: its wall time and the process's CPU time (the cost of yielding: every yield
// unwinds and rewinds the wasm stack and waits one turn of the event loop) and the longest the main thread's event loop went
// without a turn meanwhile (what a signal, a timer or an HTTP request waits for). Slice 0 never yields.
import { setImmediate } from "node:timers";
import { summarize } from "./_stats.mjs";
import { mustRun } from "./_sandbox-engines.mjs";

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

export async function sliceCost(dist) {
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
    return SLICES_MS.map((sliceMs, index) => {
      const wall = summarize(samples[index].wall);
      const cpu = summarize(samples[index].cpu);
      return { sliceMs, wall, cpu, wallRatio: wall.p50 / base.wall, cpuRatio: cpu.p50 / base.cpu, gap: summarize(samples[index].gap), turns: summarize(samples[index].turns) };
    });
  } finally {
    await Promise.all(engines.map((engine) => engine.dispose()));
  }
}
