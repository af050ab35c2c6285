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
//   so a new engine takes a warm worker. Measured once V8 has compiled the engine's hot code (100
//   engines first), and apart in a fresh process for each kind, while V8 still compiles it.
// - new worker thread: what a run pays when no worker is warm (an engine with worker options no
//   other engine uses): thread start + wasm instantiation + first run. The very first engine of the
//   process also compiles the wasm module.
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { bareWorkerStart, echoWorker } from "./_bare-worker.mjs";
import { fmt, summarize, table, verdict } from "./_stats.mjs";
import { sandboxBuildBreakdown } from "./_sandbox-build.mjs";
import { ENGINES, mustRun, sleep, trivial, untilQuiet } from "./_sandbox-engines.mjs";
import { FRESH_ENGINES, measureFresh } from "./_sandbox-fresh.mjs";
import { measureRss, WARM_RUNS } from "./_sandbox-memory.mjs";
import { imageRounds, sharedRounds } from "./_sandbox-peer-rounds.mjs";
import { engineReading } from "./_sandbox-reading.mjs";
import { DEFAULT_SLICE_MS, sliceCost } from "./_sandbox-slices.mjs";

const SELF = fileURLToPath(import.meta.url);
const DIST = new URL("../dist/", import.meta.url).href;

// Issue 15's goals: warm run <= 1 ms, new sandbox (new engine) <= 2 ms, host call <= 25 µs,
// <= 1.5 MB per live sandbox (10 alive, each blocked in a host call, above the baseline).
export const TARGETS = { warmP50Ms: 1, coldP50Ms: 2, hostCallP50Us: 25, perSandboxMb: 1.5 };

async function timed(engine, request) {
  const started = performance.now();
  await mustRun(engine, request);
  return performance.now() - started;
}

/** Engines created, run once and disposed before the new-engine case is measured. */
const ENGINES_BEFORE = 100;

/**
 * A new engine through its first result and dispose: the first of the process (which starts its first
 * worker and compiles the wasm module), then 20 more once ENGINES_BEFORE have run and the process is
 * quiet (untilQuiet); engines share warm workers. Until V8 has compiled the wasm module's hot functions (dynamic tiering: a few seconds of
 * CPU on its background threads, once per process and module; the shared mode and the in-thread
 * engine run the same module), runs were several times slower on this 2-core machine, and a kind
 * measured after another that had paid for that compile looked faster: the fresh-process row shows
 * that stretch for each kind alone (bench/_sandbox-fresh.mjs).
 */
async function newEngine(factory) {
  const once = async () => {
    const started = performance.now();
    const engine = await factory.create({ warmWorkers: 1 });
    await mustRun(engine, trivial());
    await engine.dispose();
    return performance.now() - started;
  };
  const first = await once();
  // The rest is measured in a process that is up: the warm set's background start is done and the
  // host-side code has been run before (as the warm case's warm-up does).
  await factory.settle?.();
  for (let i = 0; i < ENGINES_BEFORE; i++) await once();
  // Steady state, as the row says: not while V8 still compiles the module's hot code (see untilQuiet).
  const quietAfterMs = await untilQuiet();
  const times = [];
  for (let i = 0; i < 20; i++) {
    // As for the warm run: the process is idle when a new engine is asked for (a gateway session, a
    // REPL), so the worker has built its next sandbox; back-to-back runs are measured apart.
    await sleep(10);
    times.push(await once());
  }
  return { first, afterFirst: summarize(times), quietAfterMs };
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
    await mustRun(engine, trivial());
    times.push(performance.now() - started);
    await engine.dispose();
  }
  return summarize(times);
}

/** The floor under "new worker": a Node worker thread that does nothing but answer once. */
/**
 * Warm (after an idle pause) and back-to-back runs, interleaved in rounds across the engines so that
 * load from other work on the machine falls on all alike.
 */
async function runLatency(engines) {
  for (const engine of engines) for (let i = 0; i < 50; i++) await mustRun(engine, trivial());
  const warm = engines.map(() => []);
  const backToBack = engines.map(() => []);
  // The floor under a worker engine's warm run: a message to a bare idle worker and its answer, after the same pause.
  const echo = await echoWorker();
  const idleRoundTrip = [];
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 20; i++) {
      await sleep(10);
      idleRoundTrip.push(await echo.ping());
    }
    for (const [index, engine] of engines.entries()) {
      for (let i = 0; i < 20; i++) {
        await sleep(10);
        warm[index].push(await timed(engine, trivial()));
      }
      for (let i = 0; i < 30; i++) backToBack[index].push(await timed(engine, trivial()));
    }
  }
  await echo.close();
  const idleWorker = summarize(idleRoundTrip);
  return engines.map((_, index) => ({ warm: summarize(warm[index]), backToBack: summarize(backToBack[index]), idleWorker }));
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
    const newWorkers = kind.startsWith("quickjs") && kind !== "quickjs-inline" ? await newWorker(factory) : undefined;
    const fresh = kind.startsWith("quickjs") ? await measureFresh(kind, dist) : undefined;
    const result = { kind, newEngine: newEngines, newWorker: newWorkers, fresh };
    results.push(result);
    available.push({ result, factory });
  }
  const nodeWorker = await bareWorkerStart();
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
    // The first batch again without TurboFan (its compiles of the module's hottest functions run during that batch).
    if (/^quickjs(-inline| \(shared\))?$/.test(result.kind)) result.rssBaselineTier = await measureRss(result.kind, dist, ["--liftoff-only"]);
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
    ...(r.kind.startsWith("quickjs-inline") || r.idleWorker === undefined
      ? []
      : [["(reference: a message to a bare idle worker thread and its answer, after the same 10 ms pause: the floor a worker adds to a warm run)", ms(r.idleWorker.p50), ms(r.idleWorker.p95), "", ""]]),
    ["cold sandbox in a running worker (runs back to back: each waits for its sandbox to be built)", ms(r.backToBack.p50), ms(r.backToBack.p95), `p50 <= ${TARGETS.coldP50Ms} ms`, verdict(r.backToBack.p50 <= TARGETS.coldP50Ms)],
    [`cold sandbox, new engine: create + run + dispose (after ${ENGINES_BEFORE} engines and V8's background compile, quiet ${ms(r.newEngine.quietAfterMs)} later; engines share warm workers)`, ms(r.newEngine.afterFirst.p50), ms(r.newEngine.afterFirst.p95), `p50 <= ${TARGETS.coldP50Ms} ms`, verdict(r.newEngine.afterFirst.p50 <= TARGETS.coldP50Ms)],
    ...(r.fresh === undefined
      ? []
      : [
          [
            `the same in a fresh process, engines 2-${FRESH_ENGINES + 1}, while V8 compiles the module's hot code (process CPU ${ms(r.fresh.early.cpuMs)} in ${ms(r.fresh.early.wallMs)}; ${ms(r.fresh.late.cpuMs)} in ${ms(r.fresh.late.wallMs)} for ${FRESH_ENGINES} engines ${ENGINES_BEFORE} later, at ${ms(r.fresh.late.p50)} p50)`,
            ms(r.fresh.early.p50),
            ms(r.fresh.early.p95),
            "",
            "",
          ],
        ]),
    ["first engine in the process (worker thread start + wasm compile + first run)", ms(r.newEngine.first), "", "", ""],
    ...(r.newWorker === undefined ? [] : [["a run that finds no warm worker (new worker thread + first run)", ms(r.newWorker.p50), ms(r.newWorker.p95), "", ""]]),
    ["(reference: a bare Node worker thread starting and answering once)", ms(r.nodeWorker.p50), ms(r.nodeWorker.p95), "", ""],
    [`host call round trip (guest -> trivial host function), wall${cpu}`, us(r.hostCall.p50), us(r.hostCall.p95), `p50 <= ${TARGETS.hostCallP50Us} µs`, verdict(r.hostCall.p50 <= TARGETS.hostCallP50Us)],
    [`memory per live sandbox: 10 alive, each blocked in a host call (peak RSS ${r.rss.peakMb.toFixed(0)} MB, baseline ${r.rss.baselineMb.toFixed(0)} MB)`, `${r.rss.perSandboxMb.toFixed(1)} MB`, "", `<= ${TARGETS.perSandboxMb} MB`, verdict(r.rss.perSandboxMb <= TARGETS.perSandboxMb && r.rss.failed === 0)],
    ...(r.rssBaselineTier === undefined
      ? []
      : [[`(reference: the same first batch with V8's optimizing wasm tier off, \`--liftoff-only\`: what it carries without TurboFan compiling the module's hot functions meanwhile; peak RSS ${r.rssBaselineTier.peakMb.toFixed(0)} MB)`, `${r.rssBaselineTier.perSandboxMb.toFixed(1)} MB`, "", "", ""]]),
    ...(r.rss.perSandboxAboveStartedMb === undefined
      ? []
      : [[`the same, second batch: above the process after a first batch ended and V8's background compiles with it (quiet ${ms(r.rss.quietAfterMs)} later; RSS ${r.rss.startedMb.toFixed(0)} MB before the ten)`, `${r.rss.perSandboxAboveStartedMb.toFixed(1)} MB`, "", `<= ${TARGETS.perSandboxMb} MB`, verdict(r.rss.perSandboxAboveStartedMb <= TARGETS.perSandboxMb && r.rss.failed === 0)]]),
    [
      `memory per live sandbox once the engine is loaded: ${WARM_RUNS * 2} sequential runs and one batch of ten first, then 10 alive, each blocked in a host call (the engine's one-time load, V8's background compiles done: ${r.warmedRss.oneTimeMb.toFixed(1)} MB)`,
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
    "Every QuickJS run gets a fresh runtime and context. quickjs is the worker engine in thread mode (one run per thread, the synchronous build: " +
      "`mcpvm run`'s mode, and any process's with MCPVM_QUICKJS_WORKERS=thread); it restores each worker's sandbox image (its wasm memory's static data and heap, " +
      "copied once the worker had built a sandbox with every bootstrap piece compiled: src/sandbox/engines/quickjs-snapshot.ts) after every run; " +
      "quickjs (no image) is the same engine building and freeing a sandbox for every run, as before images, in the same rounds. " +
      "Warm = the run's sandbox was ready while the worker was idle; " +
      "back to back = each run waits for its own sandbox to be built or restored (a cold sandbox in a running worker); new engine = " +
      "workers are shared by every engine of the process with the same worker options, so a new engine takes a warm one; " +
      "a new worker thread (thread start + wasm instantiation + first run) is met only when more runs are concurrent " +
      "than workers are warm (`warmWorkers`). Host call = difference between a loop with and without a trivial host " +
      "call, per call (CPU: the whole process, both threads). Memory = (peak RSS - RSS before the engine) / 10, the peak " +
      "being the kernel's high-water mark over the batch (VmHWM, reset as it starts; until wave 13 RSS sampled every 5 ms, " +
      "which missed peaks while the main thread was busy, as the in-thread engine's is while it builds instances), so the " +
      "first-batch row carries the engine's one-time load (wasm code, glue, JIT tiers; the worker engine's warm thread) " +
      "shared out over ten; the \"once the engine is loaded\" row measures that load apart (RSS after the warm-up runs " +
      "- RSS before the engine, in a collected process) and the ten sandboxes above it. Its warm-up includes one batch of ten " +
      "on an engine of its own, ended before the measurement: sequential runs restore their sandbox from an image and never " +
      "call the wasm code that builds instances and sandboxes, so the measured ten were the first to, and V8 compiled that " +
      "code (process-wide, once) while they were live. The second-batch row is a floor, not a cost: instances the first " +
      "batch dropped (beyond the idle ones kept) hold their pages until their thread's V8 collects them (within 5-15 s of idleness in a probe), and the second " +
      "batch's memory takes their place as they go. New engine = after 100 engines; the fresh-process row is the same case " +
      "for each kind in a process of its own (bench/_sandbox-fresh.mjs), while V8 still compiles the module's hot functions " +
      "on its background threads (dynamic tiering: the process CPU beside it is mostly that): until wave 13 the new-engine row " +
      "was measured there, and a kind measured after another on the same wasm module (quickjs-inline after quickjs (shared)) " +
      "found that work done.",
    "",
    ...engineReading(),
  );
  return lines.join("\n");
}

/** The slices table: one row per slice length (bench/_sandbox-slices.mjs). */
function sliceTable(slices) {
  const rows = slices.bySlice.map((row) => [
    row.sliceMs === 0 ? "0 (never yields)" : `${row.sliceMs} ms`,
    `${ms(row.wall.p50)} (x${row.wallRatio.toFixed(2)})`,
    `${ms(row.cpu.p50)} (x${row.cpuRatio.toFixed(2)})`,
    `${ms(row.gap.p50)} / ${ms(row.gap.max)}`,
    `${row.turns.p50}`,
  ]);
  return table(["slice", "CPU-bound guest, wall p50 (vs never yielding)", "process CPU p50 (vs never yielding)", "longest event-loop gap during the run, p50 / max", "event-loop turns during the run"], rows);
}

/** One yield's cost (bench/_sandbox-slices.mjs, yieldCost). */
function yieldTable(slices) {
  const rows = slices.perYield.map((row) => [
    row.depth === 0 ? "at the top of the stack" : `${row.depth} guest frames deep`,
    `${row.checks}`,
    `${ms(row.stillMs)} / ${ms(row.yieldingMs)}`,
    us(row.perYieldUs),
    `${((row.perYieldUs / 1000 / DEFAULT_SLICE_MS) * 100).toFixed(1)} %`,
  ]);
  return table(["an empty loop, ended at its 2,000th interrupt check", "interrupt checks", "process CPU, never yielding / yielding at every check (p50)", "one yield", `its cost per ${DEFAULT_SLICE_MS} ms slice`], rows);
}

/** The breakdown table: one row per step, a column per build. */
function buildTable(breakdown) {
  const rows = breakdown.sync.map((step, index) => [step.name, us(step.p50Us), us(breakdown.asyncify[index]?.p50Us ?? NaN)]);
  return table(["building one sandbox, step by step (p50, this thread)", "sync build (worker engine)", "asyncify build (in-thread engine)"], rows);
}

export default async function benchSandbox() {
  const machine = { cpus: cpus().length, load: loadavg() };
  const results = await benchEngines(Object.keys(ENGINES));
  const sliceLoad = loadavg()[0];
  const slices = await sliceCost(DIST);
  // Last, on this thread: it instantiates both builds here, which the engines' first-engine cases must not find done.
  const breakdown = await sandboxBuildBreakdown(DIST);
  const text = [
    markdown(results, machine),
    "",
    "**What building a sandbox costs** (bench/_sandbox-build.mjs; both builds on this thread, steps interleaved). A sandbox is a " +
      "fresh runtime and context plus the compiled bootstrap; raw quickjs-emscripten's runtime + context is the floor every " +
      "QuickJS sandbox pays. This build compiles about 10 characters a microsecond in a fresh runtime, so the bootstrap's " +
      "length is the rest: it was 35,076 characters (the engine's whole sandbox build took 1.8–2.2 ms in the sync build before " +
      "the split, measured the same way on this machine), now only what every run uses; the modules and format pieces are compiled into the next sandbox while the " +
      "engine is idle, or by the run on first use when runs come back to back.",
    "",
    buildTable(breakdown),
    "",
    `**Time slices of the in-thread engine** (bench/_sandbox-slices.mjs; load average ${sliceLoad.toFixed(2)} at its start). A guest computing ` +
      "`s = (s * 31 + i) % 1000003` 3 million times on quickjs-inline, each slice length in every round (12 rounds, interleaved). " +
      "After a slice of compute the guest is suspended at its next interrupt check until the event loop has turned once " +
      "(src/sandbox/engines/quickjs-yield.ts): the gap column is what a signal, a timer or an HTTP request waits for meanwhile " +
      "(QuickJS checks every 10,000 branches or calls, a few ms of this loop, so slices shorter than that yield at every check). " +
      "A whole run's time varies more from run to run on this machine than yielding costs, so one yield is measured apart " +
      "first (the first table: on one asyncify instance, an empty loop whose 2,000 interrupt checks take the time, yielding to " +
      "the next turn of the event loop at every check against never; asyncify saves and restores every guest frame's wasm " +
      "locals, so it grows with the depth). Even so a yield's few tens of µs are near this machine's noise: a negative figure " +
      "means the yielding runs happened to be the quicker ones.",
    "",
    yieldTable(slices),
    "",
    sliceTable(slices),
    ...imageRounds(),
    ...sharedRounds(),
  ].join("\n");
  return { title: "Sandbox engines", markdown: text, data: { machine, targets: TARGETS, results, breakdown, slices } };
}

if (process.argv[1] === SELF) {
  const report = await benchSandbox();
  console.log(report.markdown);
}
