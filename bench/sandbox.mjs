// Sandbox engine benchmark for issue 2's targets: warm run, cold sandbox, host-call overhead, peak RSS
// of 10 concurrent sandboxes. Imports the built engines from ../dist (run `npm run build` first). An
// engine that cannot start here is reported with its probe's reason, never faked.
//
// What the numbers mean (every QuickJS run gets a fresh runtime and context; nothing is reused):
// - warm run: a trivial run on a started engine whose worker was idle, so the run's sandbox (runtime,
//   context, compiled bootstrap) was built ahead of it. What a REPL or gateway call sees.
// - cold sandbox, running worker: runs issued back to back, so each one waits for its own sandbox to
//   be built (the worker builds it after posting the previous result). This is also a worker's
//   throughput bound.
// - cold sandbox, new engine: create an engine, run, dispose, again and again (not the first engine
//   of the process). Workers are shared by every engine of the process with the same worker options,
//   so a new engine takes a warm worker.
// - new worker thread: what a run pays when no worker is warm (an engine with worker options no
//   other engine uses): thread start + wasm instantiation + first run. The very first engine of the
//   process also compiles the wasm module.
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { fmt, summarize, table, verdict } from "./_stats.mjs";
import { sandboxBuildBreakdown } from "./sandbox-build.mjs";

const SELF = fileURLToPath(import.meta.url);
const DIST = new URL("../dist/", import.meta.url).href;

// Issue 15's goals: warm run <= 1 ms, new sandbox (new engine) <= 2 ms, host call <= 25 µs,
// <= 1.5 MB per live sandbox (10 alive, each blocked in a host call, above the baseline).
export const TARGETS = { warmP50Ms: 1, coldP50Ms: 2, hostCallP50Us: 25, perSandboxMb: 1.5 };

/** kind -> (distRoot) => Promise<{ create(options): Promise<SandboxEngine> } | { unavailable: string }> */
const ENGINES = {
  quickjs: async (dist) => {
    const { createQuickJsEngine } = await import(`${dist}src/sandbox/engines/quickjs.js`);
    const { sharedQuickJsWorkers } = await import(`${dist}src/sandbox/engines/quickjs-shared-pool.js`);
    return {
      create: (options = {}) => createQuickJsEngine(options),
      // Until no worker is starting in the background (a process that has been up a while).
      settle: async () => {
        while (sharedQuickJsWorkers().starting > 0) await sleep(20);
      },
    };
  },
  // QuickJS's asyncify build on the caller's thread: a host call suspends the wasm stack (no thread crossing).
  "quickjs-inline": async (dist) => {
    const { createQuickJsInlineEngine } = await import(`${dist}src/sandbox/engines/quickjs-inline.js`);
    return { create: (options = {}) => createQuickJsInlineEngine(options.maxWorkers === undefined ? {} : { maxInstances: options.maxWorkers }) };
  },
  hyperlight: async (dist) => {
    const { probeHyperlight, createHyperlightEngine } = await import(`${dist}src/sandbox/engines/hyperlight/index.js`);
    const probe = await probeHyperlight();
    if (!probe.ok) return { unavailable: probe.reason };
    return { create: (options = {}) => createHyperlightEngine(options) };
  },
};

const TRIVIAL = { code: "return 1" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function mustRun(engine, request) {
  const result = await engine.run(request);
  if (!result.ok) throw new Error(`benchmark run failed: ${result.error.code}: ${result.error.message}`);
  return result;
}

async function timed(engine, request) {
  const started = performance.now();
  await mustRun(engine, request);
  return performance.now() - started;
}

/**
 * A new engine through its first result and dispose: the first of the process (which starts its first
 * worker and compiles the wasm module), then 20 more; engines share warm workers.
 */
async function newEngine(factory) {
  const once = async () => {
    const started = performance.now();
    const engine = await factory.create({ warmWorkers: 1 });
    await mustRun(engine, TRIVIAL);
    await engine.dispose();
    return performance.now() - started;
  };
  const first = await once();
  // The rest is measured in a process that is up: the warm set's background start is done and the
  // host-side code has been run before (as the warm case's warm-up does).
  await factory.settle?.();
  for (let i = 0; i < 10; i++) await once();
  const times = [];
  for (let i = 0; i < 20; i++) {
    // As for the warm run: the process is idle when a new engine is asked for (a gateway session, a
    // REPL), so the worker has built its next sandbox; back-to-back runs are measured apart.
    await sleep(10);
    times.push(await once());
  }
  return { first, afterFirst: summarize(times) };
}

/**
 * A run that finds no warm worker: each engine has worker options of its own (a wasm memory cap no
 * other engine uses), so its first run starts a thread. Its pool ends 1 ms after the dispose.
 */
async function newWorker(factory) {
  const times = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const engine = await factory.create({ warmWorkers: 1, idleWorkerMs: 1, maxWasmMemoryBytes: (600 + i) * 1024 * 1024 });
    await mustRun(engine, TRIVIAL);
    times.push(performance.now() - started);
    await engine.dispose();
  }
  return summarize(times);
}

/** The floor under "new worker": a Node worker thread that does nothing but answer once. */
async function bareWorker() {
  const times = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(0);', { eval: true });
    await new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject));
    times.push(performance.now() - started);
    await worker.terminate();
  }
  return summarize(times);
}

/**
 * Warm (after an idle pause) and back-to-back runs, interleaved in rounds across the engines so that
 * load from other work on the machine falls on all alike.
 */
async function runLatency(engines) {
  for (const engine of engines) for (let i = 0; i < 50; i++) await mustRun(engine, TRIVIAL);
  const warm = engines.map(() => []);
  const backToBack = engines.map(() => []);
  for (let round = 0; round < 10; round++) {
    for (const [index, engine] of engines.entries()) {
      for (let i = 0; i < 20; i++) {
        await sleep(10);
        warm[index].push(await timed(engine, TRIVIAL));
      }
      for (let i = 0; i < 30; i++) backToBack[index].push(await timed(engine, TRIVIAL));
    }
  }
  return engines.map((_, index) => ({ warm: summarize(warm[index]), backToBack: summarize(backToBack[index]) }));
}

/**
 * Per-call cost = (loop with a host call - same loop without) / calls, measured inside one engine
 * (engines interleaved): wall time, and CPU time of the whole process (all threads; with spinning
 * workers, CPU includes the worker's brief busy wait for the reply).
 */
async function hostCallOverhead(engines) {
  const calls = 2000;
  const modules = { bench: { noop: () => null } };
  const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${calls}; i++) { ${body} } return 0;`;
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const measure = async (engine, body) => {
    const cpuBefore = cpuMs();
    const wall = await timed(engine, { code: loop(body), modules });
    return { wall, cpu: cpuMs() - cpuBefore };
  };
  for (const engine of engines) for (let i = 0; i < 3; i++) await mustRun(engine, { code: loop("m.noop();"), modules });
  const perCallUs = engines.map(() => []);
  const cpuPerCallUs = engines.map(() => []);
  for (let i = 0; i < 15; i++) {
    for (const [index, engine] of engines.entries()) {
      const withCalls = await measure(engine, "m.noop();");
      const without = await measure(engine, "void i;");
      perCallUs[index].push(((withCalls.wall - without.wall) * 1000) / calls);
      cpuPerCallUs[index].push(((withCalls.cpu - without.cpu) * 1000) / calls);
    }
  }
  return engines.map((_, index) => ({ ...summarize(perCallUs[index]), cpu: summarize(cpuPerCallUs[index]) }));
}

/** Runs in a child process so the parent's heap and other engines do not pollute the number. */
function measureRss(kind, dist) {
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
  await mustRun(first, TRIVIAL);
  await factory.settle?.();
  await sleep(300);
  const baselineMb = process.memoryUsage().rss / 1e6;
  const engines = [];
  for (let i = 0; i < 10; i++) {
    const engine = await factory.create({});
    await mustRun(engine, TRIVIAL);
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
  for (let i = 0; i < WARM_RUNS; i++) await mustRun(engine, TRIVIAL);
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
const WARM_RUNS = 100;

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

/**
 * Every measurement for each engine kind, built from `dist` (a file URL ending in "/"): start-up cases
 * one engine after another, latency and host calls interleaved across engines, memory in child processes.
 */
export async function benchEngines(kinds, dist = DIST) {
  const available = [];
  const results = [];
  for (const kind of kinds) {
    const factory = await ENGINES[kind](dist);
    if (factory.unavailable !== undefined) {
      results.push({ kind, unavailable: factory.unavailable });
      continue;
    }
    const newEngines = await newEngine(factory);
    const newWorkers = kind === "quickjs" ? await newWorker(factory) : undefined;
    const result = { kind, newEngine: newEngines, newWorker: newWorkers };
    results.push(result);
    available.push({ result, factory });
  }
  const nodeWorker = await bareWorker();
  const engines = [];
  try {
    for (const { factory } of available) engines.push(await factory.create({ warmWorkers: 1 }));
    const latency = await runLatency(engines);
    const hostCalls = await hostCallOverhead(engines);
    for (const [index, { result }] of available.entries()) Object.assign(result, { nodeWorker, ...latency[index], hostCall: hostCalls[index] });
  } finally {
    await Promise.all(engines.map((engine) => engine.dispose()));
  }
  const bareRss = await measureRss("bare-worker", dist);
  for (const { result } of available) {
    result.rss = await measureRss(result.kind, dist);
    result.warmedRss = await measureRss(`${result.kind}:warmed`, dist);
    result.bareRss = bareRss;
    if (result.kind === "quickjs") result.idleRss = await measureRss("idle-engines", dist);
  }
  return results;
}

/** Every measurement for one engine kind (see benchEngines). */
export async function benchEngine(kind, dist = DIST) {
  return (await benchEngines([kind], dist))[0];
}

const ms = (value) => fmt(value);
const us = (value) => `${value.toFixed(0)} µs`;

function engineTable(r) {
  const cpu = r.hostCall.cpu === undefined ? "" : ` (CPU ${us(r.hostCall.cpu.p50)})`;
  const rows = [
    ["warm run (idle worker, sandbox built ahead)", ms(r.warm.p50), ms(r.warm.p95), `p50 <= ${TARGETS.warmP50Ms} ms`, verdict(r.warm.p50 <= TARGETS.warmP50Ms)],
    ["cold sandbox in a running worker (runs back to back: each waits for its sandbox to be built)", ms(r.backToBack.p50), ms(r.backToBack.p95), `p50 <= ${TARGETS.coldP50Ms} ms`, verdict(r.backToBack.p50 <= TARGETS.coldP50Ms)],
    ["cold sandbox, new engine: create + run + dispose (after the first; engines share warm workers)", ms(r.newEngine.afterFirst.p50), ms(r.newEngine.afterFirst.p95), `p50 <= ${TARGETS.coldP50Ms} ms`, verdict(r.newEngine.afterFirst.p50 <= TARGETS.coldP50Ms)],
    ["first engine in the process (worker thread start + wasm compile + first run)", ms(r.newEngine.first), "", "", ""],
    ...(r.newWorker === undefined ? [] : [["a run that finds no warm worker (new worker thread + first run)", ms(r.newWorker.p50), ms(r.newWorker.p95), "", ""]]),
    ["(reference: a bare Node worker thread starting and answering once)", ms(r.nodeWorker.p50), ms(r.nodeWorker.p95), "", ""],
    [`host call round trip (guest -> trivial host function), wall${cpu}`, us(r.hostCall.p50), us(r.hostCall.p95), `p50 <= ${TARGETS.hostCallP50Us} µs`, verdict(r.hostCall.p50 <= TARGETS.hostCallP50Us)],
    [`memory per live sandbox: 10 alive, each blocked in a host call (peak RSS ${r.rss.peakMb.toFixed(0)} MB, baseline ${r.rss.baselineMb.toFixed(0)} MB)`, `${r.rss.perSandboxMb.toFixed(1)} MB`, "", `<= ${TARGETS.perSandboxMb} MB`, verdict(r.rss.perSandboxMb <= TARGETS.perSandboxMb && r.rss.failed === 0)],
    ...(r.rss.perSandboxAboveStartedMb === undefined
      ? []
      : [[`the same, second batch: above the process after a first batch ended (RSS ${r.rss.startedMb.toFixed(0)} MB before the ten)`, `${r.rss.perSandboxAboveStartedMb.toFixed(1)} MB`, "", `<= ${TARGETS.perSandboxMb} MB`, verdict(r.rss.perSandboxAboveStartedMb <= TARGETS.perSandboxMb && r.rss.failed === 0)]]),
    [
      `memory per live sandbox once the engine is loaded: ${WARM_RUNS * 2} sequential runs first, then 10 alive, each blocked in a host call (the engine's one-time load: ${r.warmedRss.oneTimeMb.toFixed(1)} MB)`,
      `${r.warmedRss.perSandboxMb.toFixed(1)} MB`,
      "",
      `<= ${TARGETS.perSandboxMb} MB`,
      verdict(r.warmedRss.perSandboxMb <= TARGETS.perSandboxMb && r.warmedRss.failed === 0),
    ],
    ["(reference: a bare Node worker thread, idle, 10 alive)", `${r.bareRss.perSandboxMb.toFixed(1)} MB`, "", "", ""],
    ...(r.idleRss === undefined ? [] : [["memory per idle engine: 10 more engines, each ran once, none disposed (RSS added / 10)", `${r.idleRss.perSandboxMb.toFixed(2)} MB`, "", "", ""]]),
  ];
  return table(["measure", "p50", "p95", "target", "verdict"], rows);
}

function markdown(results, machine) {
  const lines = [`Machine: ${machine.cpus} CPUs, load average ${machine.load.map((l) => l.toFixed(2)).join(" / ")} at start (other work shares these cores).`];
  for (const r of results) {
    lines.push("", `**${r.kind}**`, "");
    lines.push(r.unavailable !== undefined ? `unavailable: ${r.unavailable}` : engineTable(r));
  }
  lines.push(
    "",
    "Every QuickJS run gets a fresh runtime and context. Warm = the run's sandbox was built while the worker was idle; " +
      "back to back = each run waits for its own sandbox to be built (a cold sandbox in a running worker); new engine = " +
      "workers are shared by every engine of the process with the same worker options, so a new engine takes a warm one; " +
      "a new worker thread (thread start + wasm instantiation + first run) is met only when more runs are concurrent " +
      "than workers are warm (`warmWorkers`). Host call = difference between a loop with and without a trivial host " +
      "call, per call (CPU: the whole process, both threads). Memory = (peak RSS - RSS before the engine) / 10, so the " +
      "first-batch row carries the engine's one-time load (wasm code, glue, JIT tiers; the worker engine's warm thread) " +
      "shared out over ten; the \"once the engine is loaded\" row measures that load apart (RSS after the warm-up runs " +
      "- RSS before the engine, in a collected process) and the ten sandboxes above it.",
    "",
    "**Reading (issue 15).** Two QuickJS engines, measured in the same interleaved rounds. The worker engine " +
      "(quickjs): workers are shared by every engine of the process, so a new engine costs what a warm run costs; a " +
      "blocked guest holds a worker thread (a bare Node worker alone holds the RSS in the reference row), and a host " +
      "call crosses threads twice (~30 µs on this 2-core VM in a bare Node program). The in-thread engine " +
      "(quickjs-inline): QuickJS's asyncify build on the caller's thread; a host call suspends the guest's wasm stack " +
      "instead of crossing threads, and a live sandbox holds its instance's touched wasm pages, not a thread. Its " +
      "first batch of ten pays the process's one-time costs (the 1 MB asyncify module's code tiering up, glue), so " +
      "the second-batch and \"once the engine is loaded\" rows are its steady state (the 16 MiB each instance's memory " +
      "starts at is the build's minimum, but pages never touched cost no RSS). Its price: while guest code computes the caller's thread runs " +
      "nothing else, and asyncify code runs guest JavaScript slower than the synchronous build (more so until V8 " +
      "tiers it up).",
  );
  return lines.join("\n");
}

/** The breakdown table: one row per step, a column per build. */
function buildTable(breakdown) {
  const rows = breakdown.sync.map((step, index) => [step.name, us(step.p50Us), us(breakdown.asyncify[index]?.p50Us ?? NaN)]);
  return table(["building one sandbox, step by step (p50, this thread)", "sync build (worker engine)", "asyncify build (in-thread engine)"], rows);
}

export default async function benchSandbox() {
  const machine = { cpus: cpus().length, load: loadavg() };
  const results = await benchEngines(Object.keys(ENGINES));
  // Last, on this thread: it instantiates both builds here, which the engines' first-engine cases must not find done.
  const breakdown = await sandboxBuildBreakdown(DIST);
  const text = [
    markdown(results, machine),
    "",
    "**What building a sandbox costs** (bench/sandbox-build.mjs; both builds on this thread, steps interleaved). A sandbox is a " +
      "fresh runtime and context plus the compiled bootstrap; raw quickjs-emscripten's runtime + context is the floor every " +
      "QuickJS sandbox pays. This build compiles about 10 characters a microsecond in a fresh runtime, so the bootstrap's " +
      "length is the rest: it was 35,076 characters (the engine's whole sandbox build took 1.8–2.2 ms in the sync build before " +
      "the split, measured the same way on this machine), now only what every run uses; the modules and format pieces are compiled into the next sandbox while the " +
      "engine is idle, or by the run on first use when runs come back to back.",
    "",
    buildTable(breakdown),
  ].join("\n");
  return { title: "Sandbox engines", markdown: text, data: { machine, targets: TARGETS, results, breakdown } };
}

if (process.argv[1] === SELF && process.argv[2] === "--rss-child") {
  await rssChild(process.argv[3], process.argv[4]);
} else if (process.argv[1] === SELF) {
  const report = await benchSandbox();
  console.log(report.markdown);
}
