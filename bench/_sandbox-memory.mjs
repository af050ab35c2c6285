// Memory per live sandbox for the sandbox section (bench/sandbox.mjs): each measurement runs in a
// child process of its own (this file with --rss-child), so the parent's heap and other engines do
// not count. Files starting with _ are not sections of `npm run bench`.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ENGINES, mustRun, sleep, trivial } from "./_sandbox-engines.mjs";

const SELF = fileURLToPath(import.meta.url);

/** Runs in a child process so the parent's heap and other engines do not pollute the number. */
export function measureRss(kind, dist) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", SELF, "--rss-child", kind, dist], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`rss child exited with ${code}`))));
  });
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
 * warmed by sequential runs (the same program with a host call that answers at once, then trivial
 * runs) until its code is loaded and compiled, the process is settled and collected, and only then
 * are ten sandboxes blocked in a host call at once. One-time = RSS after the warm-up - RSS before the
 * engine; per sandbox = (peak RSS of the ten - RSS after the warm-up) / 10.
 */
async function warmedRss(kind, dist) {
  const factory = await ENGINES[kind](dist);
  globalThis.gc?.();
  await sleep(100);
  const baselineMb = process.memoryUsage().rss / 1e6;
  const engine = await factory.create({ maxWorkers: 10, idleWorkerMs: 200 });
  let blocking = false;
  let arrived = 0;
  let peak = 0;
  const modules = {
    sync: {
      meet: () =>
        blocking
          ? new Promise((resolve) => {
              arrived++;
              peak = Math.max(peak, process.memoryUsage().rss);
              const check = setInterval(() => arrived % 10 === 0 && (clearInterval(check), resolve(arrived)), 5);
            })
          : 0,
    },
  };
  const code = 'const keep = new Array(30000).fill(0).map((_, i) => i); return require("host:sync").meet() + keep.length;';
  for (let i = 0; i < WARM_RUNS; i++) await mustRun(engine, { code, modules });
  for (let i = 0; i < WARM_RUNS; i++) await mustRun(engine, trivial());
  await factory.settle?.();
  await sleep(600);
  globalThis.gc?.();
  await sleep(200);
  const warmedMb = process.memoryUsage().rss / 1e6;
  blocking = true;
  peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const results = await Promise.all(Array.from({ length: 10 }, () => engine.run({ code, modules })));
  clearInterval(sampler);
  await engine.dispose();
  process.stdout.write(
    JSON.stringify({
      baselineMb,
      warmedMb,
      oneTimeMb: warmedMb - baselineMb,
      peakMb: peak / 1e6,
      perSandboxMb: (peak / 1e6 - warmedMb) / 10,
      failed: results.filter((result) => !result.ok).length,
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
  let peak = process.memoryUsage().rss;
  let arrived = 0;
  const modules = {
    sync: {
      meet: () =>
        new Promise((resolve) => {
          arrived++;
          peak = Math.max(peak, process.memoryUsage().rss);
          const check = setInterval(() => arrived % 10 === 0 && (clearInterval(check), resolve(arrived)), 5);
        }),
    },
  };
  const code = 'const keep = new Array(30000).fill(0).map((_, i) => i); return require("host:sync").meet() + keep.length;';
  const batch = () => Promise.all(Array.from({ length: 10 }, () => engine.run({ code, modules })));
  // First batch: the process's one-time costs (threads' or wasm code's JIT tier-up, glue) land here.
  const first = await batch();
  const firstPeakMb = peak / 1e6;
  await factory.settle?.();
  await sleep(600);
  globalThis.gc?.();
  await sleep(100);
  const startedMb = process.memoryUsage().rss / 1e6;
  peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const results = await batch();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await engine.dispose();
  const failed = [...first, ...results].filter((result) => !result.ok).length;
  process.stdout.write(
    JSON.stringify({
      baselineMb,
      peakMb: firstPeakMb,
      perSandboxMb: (firstPeakMb - baselineMb) / 10,
      startedMb,
      perSandboxAboveStartedMb: (peak / 1e6 - startedMb) / 10,
      failed,
    }),
  );
}

if (process.argv[1] === SELF && process.argv[2] === "--rss-child") {
  await rssChild(process.argv[3], process.argv[4]);
}
