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
// - cold sandbox, new worker: a new engine (worker thread start + wasm instantiation) through its first
//   result; the very first also compiles the wasm module. The pool keeps `warmWorkers` started so a run
//   only meets this when more runs are concurrent than workers are warm.
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { fmt, summarize, table, verdict } from "./_stats.mjs";

const SELF = fileURLToPath(import.meta.url);
const DIST = new URL("../dist/", import.meta.url).href;

export const TARGETS = { warmP50Ms: 2, coldP50Ms: 25, hostCallP50Us: 100, rss10Mb: 250 };

/** kind -> (distRoot) => Promise<{ create(options): Promise<SandboxEngine> } | { unavailable: string }> */
const ENGINES = {
  quickjs: async (dist) => {
    const { createQuickJsEngine } = await import(`${dist}src/sandbox/engines/quickjs.js`);
    return { create: (options = {}) => createQuickJsEngine(options) };
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

/** A new engine through its first result, nine times; the first also compiles the wasm module. */
async function newWorker(factory) {
  const times = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const engine = await factory.create({ warmWorkers: 1 });
    await mustRun(engine, TRIVIAL);
    times.push(performance.now() - started);
    await engine.dispose();
  }
  return { first: times[0], afterFirst: summarize(times.slice(1)) };
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
 * Warm (after an idle pause) and back-to-back runs, interleaved in rounds so that load from other
 * work on the machine falls on both alike.
 */
async function runLatency(engine) {
  for (let i = 0; i < 50; i++) await mustRun(engine, TRIVIAL);
  const warm = [];
  const backToBack = [];
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 20; i++) {
      await sleep(10);
      warm.push(await timed(engine, TRIVIAL));
    }
    for (let i = 0; i < 30; i++) backToBack.push(await timed(engine, TRIVIAL));
  }
  return { warm: summarize(warm), backToBack: summarize(backToBack) };
}

/** Per-call cost = (loop with a host call - same loop without) / calls, measured inside one engine. */
async function hostCallOverhead(engine) {
  const calls = 2000;
  const modules = { bench: { noop: () => null } };
  const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${calls}; i++) { ${body} } return 0;`;
  for (let i = 0; i < 3; i++) await mustRun(engine, { code: loop("m.noop();"), modules });
  const perCallUs = [];
  for (let i = 0; i < 9; i++) {
    const withCalls = await timed(engine, { code: loop("m.noop();"), modules });
    const without = await timed(engine, { code: loop("void i;"), modules });
    perCallUs.push(((withCalls - without) * 1000) / calls);
  }
  return summarize(perCallUs);
}

/** Runs in a child process so the parent's heap and other engines do not pollute the number. */
function measureRss(kind, dist) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SELF, "--rss-child", kind, dist], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`rss child exited with ${code}`))));
  });
}

async function rssChild(kind, dist) {
  const factory = await ENGINES[kind](dist);
  const baselineMb = process.memoryUsage().rss / 1e6;
  const engine = await factory.create({ maxWorkers: 10 });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  // Each sandbox builds ~0.5 MB of guest data and waits in a host call, so all ten are alive at once.
  let arrived = 0;
  const modules = {
    sync: {
      meet: () =>
        new Promise((resolve) => {
          arrived++;
          const check = setInterval(() => arrived >= 10 && (clearInterval(check), resolve(arrived)), 5);
        }),
    },
  };
  const code = 'const keep = new Array(30000).fill(0).map((_, i) => i); return require("host:sync").meet() + keep.length;';
  const results = await Promise.all(Array.from({ length: 10 }, () => engine.run({ code, modules })));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await engine.dispose();
  const failed = results.filter((result) => !result.ok).length;
  process.stdout.write(JSON.stringify({ baselineMb, peakMb: peak / 1e6, perSandboxMb: (peak / 1e6 - baselineMb) / 10, failed }));
}

/** Every measurement for one engine kind, built from `dist` (a file URL ending in "/"). */
export async function benchEngine(kind, dist = DIST) {
  const factory = await ENGINES[kind](dist);
  if (factory.unavailable !== undefined) return { kind, unavailable: factory.unavailable };
  const newWorkers = await newWorker(factory);
  const nodeWorker = await bareWorker();
  const engine = await factory.create({ warmWorkers: 1 });
  try {
    const latency = await runLatency(engine);
    const hostCall = await hostCallOverhead(engine);
    const rss = await measureRss(kind, dist);
    return { kind, newWorker: newWorkers, nodeWorker, ...latency, hostCall, rss };
  } finally {
    await engine.dispose();
  }
}

const ms = (value) => fmt(value);
const us = (value) => `${value.toFixed(0)} µs`;

function engineTable(r) {
  const rows = [
    ["warm run (idle worker, sandbox built ahead)", ms(r.warm.p50), ms(r.warm.p95), `p50 <= ${TARGETS.warmP50Ms} ms`, verdict(r.warm.p50 <= TARGETS.warmP50Ms)],
    ["cold sandbox in a running worker (runs back to back: each waits for its sandbox to be built)", ms(r.backToBack.p50), ms(r.backToBack.p95), `p50 <= ${TARGETS.coldP50Ms} ms (within the warm ${TARGETS.warmP50Ms} ms: ${r.backToBack.p50 <= TARGETS.warmP50Ms ? "yes" : "no"})`, verdict(r.backToBack.p50 <= TARGETS.coldP50Ms)],
    ["cold sandbox, new worker (after the first)", ms(r.newWorker.afterFirst.p50), ms(r.newWorker.afterFirst.p95), `p50 <= ${TARGETS.coldP50Ms} ms`, verdict(r.newWorker.afterFirst.p50 <= TARGETS.coldP50Ms)],
    ["cold sandbox, new worker, first in the process", ms(r.newWorker.first), "", "", ""],
    ["(reference: a bare Node worker thread starting and answering once)", ms(r.nodeWorker.p50), ms(r.nodeWorker.p95), "", ""],
    ["host call overhead (guest -> trivial host function)", us(r.hostCall.p50), us(r.hostCall.p95), `p50 <= ${TARGETS.hostCallP50Us} µs`, verdict(r.hostCall.p50 <= TARGETS.hostCallP50Us)],
    [`10 concurrent sandboxes: peak RSS (baseline ${r.rss.baselineMb.toFixed(0)} MB, ${r.rss.perSandboxMb.toFixed(1)} MB each above it)`, `${r.rss.peakMb.toFixed(0)} MB`, "", `<= ${TARGETS.rss10Mb} MB`, verdict(r.rss.peakMb <= TARGETS.rss10Mb && r.rss.failed === 0)],
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
      "back to back = each run waits for its own sandbox to be built (a cold sandbox in a running worker); new worker = " +
      "thread start + wasm instantiation + first run, which a run meets only when more runs are concurrent than workers " +
      "are warm (`warmWorkers`). Host call = difference between a loop with and without a trivial host call, per call.",
  );
  return lines.join("\n");
}

export default async function benchSandbox() {
  const machine = { cpus: cpus().length, load: loadavg() };
  const results = [];
  for (const kind of Object.keys(ENGINES)) results.push(await benchEngine(kind));
  return { title: "Sandbox engines", markdown: markdown(results, machine), data: { machine, targets: TARGETS, results } };
}

if (process.argv[1] === SELF && process.argv[2] === "--rss-child") {
  await rssChild(process.argv[3], process.argv[4]);
} else if (process.argv[1] === SELF) {
  const report = await benchSandbox();
  console.log(report.markdown);
}
