// Memory per live sandbox for the sandbox section (bench/sandbox.mjs): each measurement runs in a
// child process of its own (this file with --rss-child), so the parent's heap and other engines do
// not count. Files starting with _ are not sections of `npm run bench`.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ENGINES, mustRun, sleep, trivial, untilQuiet } from "./_sandbox-engines.mjs";

const SELF = fileURLToPath(import.meta.url);

/**
 * Runs in a child process so the parent's heap and other engines do not pollute the number; `v8Flags`
 * go to the child's node (the reference row with V8's optimizing wasm tier off: ["--liftoff-only"]).
 */
export function measureRss(kind, dist, v8Flags = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", ...v8Flags, SELF, "--rss-child", kind, dist], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`rss child exited with ${code}`))));
  });
}

/**
 * The process's peak RSS from now on: the kernel's high-water mark (VmHWM, reset through
 * /proc/self/clear_refs) where Linux offers it, else samples every 5 ms. Samples miss a peak that
 * comes and goes while this thread is busy (the in-thread engine builds its instances here) or
 * between two samples (memory a background compile holds for a moment).
 */
function peakRss() {
  let kernel = false;
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    kernel = true;
  } catch {
    // Not Linux, or not allowed: samples only.
  }
  let sampled = process.memoryUsage().rss;
  const sampler = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 5);
  return {
    /** Peak RSS in MB since peakRss() was called, and stop sampling. */
    stop() {
      clearInterval(sampler);
      sampled = Math.max(sampled, process.memoryUsage().rss);
      const hwm = kernel ? /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8")) : null;
      return Math.max(sampled, hwm === null ? 0 : Number(hwm[1]) * 1024) / 1e6;
    },
  };
}

/** The floor under a blocked sandbox: ten Node worker threads that do nothing, alive at once. */
async function bareWorkersRss() {
  const baselineMb = process.memoryUsage().rss / 1e6;
  const workers = [];
  for (let i = 0; i < 10; i++) {
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(0); setInterval(() => {}, 1000);', { eval: true });
    await new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject));
    workers.push(worker);
  }
  await sleep(200);
  const peakMb = process.memoryUsage().rss / 1e6;
  await Promise.all(workers.map((worker) => worker.terminate()));
  process.stdout.write(JSON.stringify({ baselineMb, peakMb, perSandboxMb: (peakMb - baselineMb) / 10, failed: 0 }));
}

/**
 * What idle engines hold (a gateway with ten sessions, each with its engine): RSS added by ten more
 * engines that each ran once, in a process where one engine is already up.
 */
async function idleEnginesRss(dist) {
  const factory = await ENGINES.quickjs(dist);
  const first = await factory.create({});
  await mustRun(first, trivial());
  await factory.settle?.();
  await sleep(300);
  const baselineMb = process.memoryUsage().rss / 1e6;
  const engines = [];
  for (let i = 0; i < 10; i++) {
    const engine = await factory.create({});
    await mustRun(engine, trivial());
    engines.push(engine);
  }
  await factory.settle?.();
  await sleep(300);
  const peakMb = process.memoryUsage().rss / 1e6;
  process.stdout.write(JSON.stringify({ baselineMb, peakMb, perSandboxMb: (peakMb - baselineMb) / 10, failed: 0 }));
}

/**
 * The engine's one-time load apart from what each live sandbox holds: the engine is created and
 * warmed until its code is loaded and compiled (sequential runs: the same program with a host call
 * that answers at once, then trivial runs), one batch of ten alive at once runs on an engine of its
 * own, ended before the measurement (another wasm memory cap: its own threads or instances), the
 * process is settled and collected, and only then are ten sandboxes blocked in a host call at once.
 * That batch has V8 compile the wasm code that builds instances and sandboxes, which the sequential
 * runs never call (they restore their sandbox from an image): compiled code is the process's, and
 * its compile held ~1 MB per sandbox of the measured ten for a moment. On an engine of its own, what
 * that batch leaves (instances dropped but not yet collected in a worker, a thread) goes with it.
 * One-time = RSS after the warm-up - RSS before the engine; per sandbox = (peak RSS of the ten - RSS
 * after the warm-up) / 10.
 */
async function warmedRss(kind, dist) {
  const factory = await ENGINES[kind](dist);
  globalThis.gc?.();
  await sleep(100);
  const baselineMb = process.memoryUsage().rss / 1e6;
  const engine = await factory.create({ maxWorkers: 10, idleWorkerMs: 200 });
  let blocking = false;
  let arrived = 0;
  const modules = {
    sync: {
      meet: () =>
        blocking
          ? new Promise((resolve) => {
              arrived++;
              const check = setInterval(() => arrived % 10 === 0 && (clearInterval(check), resolve(arrived)), 5);
            })
          : 0,
    },
  };
  const code = 'const keep = new Array(30000).fill(0).map((_, i) => i); return require("host:sync").meet() + keep.length;';
  const batch = (on) => Promise.all(Array.from({ length: 10 }, () => on.run({ code, modules })));
  for (let i = 0; i < WARM_RUNS; i++) await mustRun(engine, { code, modules });
  for (let i = 0; i < WARM_RUNS; i++) await mustRun(engine, trivial());
  blocking = true;
  const burstMemoryBytes = 300 * 1024 * 1024;
  const burst = await factory.create({ maxWorkers: 10, idleWorkerMs: 1, maxWasmMemoryBytes: burstMemoryBytes });
  const warmBatch = await batch(burst);
  await burst.dispose();
  await factory.retire?.(burstMemoryBytes);
  await factory.settle?.();
  await sleep(600);
  // V8's compiles of the module's hot functions (seconds, with up to ~0.3 GB of compiler memory) are the one-time load.
  const quietAfterMs = await untilQuiet();
  globalThis.gc?.();
  await sleep(200);
  const warmedMb = process.memoryUsage().rss / 1e6;
  const peak = peakRss();
  const results = await batch(engine);
  const peakMb = peak.stop();
  await engine.dispose();
  process.stdout.write(
    JSON.stringify({
      baselineMb,
      warmedMb,
      oneTimeMb: warmedMb - baselineMb,
      quietAfterMs,
      peakMb,
      perSandboxMb: (peakMb - warmedMb) / 10,
      failed: [...warmBatch, ...results].filter((result) => !result.ok).length,
    }),
  );
}

/** Sequential runs that warm an engine before its per-sandbox memory is measured (see warmedRss). */
export const WARM_RUNS = 100;

async function rssChild(kind, dist) {
  if (kind === "bare-worker") return bareWorkersRss();
  if (kind === "idle-engines") return idleEnginesRss(dist);
  if (kind.endsWith(":warmed")) return warmedRss(kind.slice(0, -":warmed".length), dist);
  const factory = await ENGINES[kind](dist);
  const baselineMb = process.memoryUsage().rss / 1e6;
  // Idle workers beyond the warm one end 200 ms after a batch (the inline engine keeps 2 idle instances).
  const engine = await factory.create({ maxWorkers: 10, idleWorkerMs: 200 });
  // Each sandbox builds ~0.5 MB of guest data and waits in a host call, so all ten are alive at once.
  let arrived = 0;
  const modules = {
    sync: {
      meet: () =>
        new Promise((resolve) => {
          arrived++;
          const check = setInterval(() => arrived % 10 === 0 && (clearInterval(check), resolve(arrived)), 5);
        }),
    },
  };
  const code = 'const keep = new Array(30000).fill(0).map((_, i) => i); return require("host:sync").meet() + keep.length;';
  const batch = () => Promise.all(Array.from({ length: 10 }, () => engine.run({ code, modules })));
  // First batch: the process's one-time costs (threads' or wasm code's JIT tier-up, glue) land here.
  const firstPeak = peakRss();
  const first = await batch();
  const firstPeakMb = firstPeak.stop();
  await factory.settle?.();
  await sleep(600);
  // The second batch is measured once V8's background compiles that the first one started are done: one
  // running then (wave 20: up to ~0.3 GB for a few seconds) made that row read 5-9 MB a sandbox, not <1.
  const quietAfterMs = await untilQuiet();
  globalThis.gc?.();
  await sleep(100);
  const startedMb = process.memoryUsage().rss / 1e6;
  const secondPeak = peakRss();
  const results = await batch();
  const secondPeakMb = secondPeak.stop();
  await engine.dispose();
  const failed = [...first, ...results].filter((result) => !result.ok).length;
  process.stdout.write(
    JSON.stringify({
      baselineMb,
      peakMb: firstPeakMb,
      perSandboxMb: (firstPeakMb - baselineMb) / 10,
      startedMb,
      quietAfterMs,
      perSandboxAboveStartedMb: (secondPeakMb - startedMb) / 10,
      failed,
    }),
  );
}

if (process.argv[1] === SELF && process.argv[2] === "--rss-child") {
  await rssChild(process.argv[3], process.argv[4]);
}
