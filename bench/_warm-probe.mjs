// Probe (issue 15, wave 32): where a warm run on the worker engine spends its time, step by step and
// thread by thread. The worker's program is the engine's own (a dist build), with timestamps spliced
// into its source text at fixed lines (an anchor that is not found stops the probe); the main thread's
// steps are marked by wrapping Worker.prototype.postMessage and .emit. Times are epoch ms
// (performance.timeOrigin + performance.now() on each thread), so the two threads' marks compare.
// Per-thread CPU comes from /proc/self/task/<tid>/schedstat (time on a core) read around a batch,
// from the main thread (the worker sleeps then, so its figure is exact).
// Cases: "warm" = a trivial run after a 10 ms idle pause (the bench row), "b2b" = runs back to back
// (the threads never sleep long: what is left there is our own work, not waking up), and a bare
// worker echoing one message after the same pause (the floor a worker adds).
// Usage: node [--cpu-prof --cpu-prof-dir=DIR] bench/_warm-probe.mjs <dist> [thread|shared] [runs=60] [rounds=3]
// Files starting with _ are not sections.
import { BroadcastChannel, Worker } from "node:worker_threads";
import { readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { summarize } from "./_stats.mjs";

const args = process.argv.slice(2);
const dist = pathToFileURL(resolve(args[0] ?? "dist")).href + "/";
const mode = args[1] === "shared" ? "shared" : "thread";
const RUNS = Number(args[2] ?? 60);
const ROUNDS = Number(args[3] ?? 3);
const PAUSE_MS = 10;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
// CLOCK_MONOTONIC, the same clock on every thread (performance.timeOrigin differs between threads by up to a few hundred µs).
const now = () => Number(process.hrtime.bigint()) / 1e6;

// --- marks on the main thread -------------------------------------------------------------------
let armed = false;
let marks = [];
const mark = (name) => armed && marks.push([name, now()]);
const realPost = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (...rest) {
  mark("m:post");
  return realPost.apply(this, rest);
};
const realEmit = Worker.prototype.emit;
Worker.prototype.emit = function (event, ...rest) {
  if (event === "message") mark("m:recv");
  return realEmit.call(this, event, ...rest);
};

// --- marks in the worker --------------------------------------------------------------------------
const PRELUDE = `globalThis.__probe = (() => {
  const { BroadcastChannel } = require("node:worker_threads");
  const channel = new BroadcastChannel("mcpvm-warm-probe");
  channel.unref();
  const tid = require("node:fs").readlinkSync("/proc/thread-self").split("/").pop();
  let marks = [];
  channel.postMessage({ tid, marks: [] });
  return { mark: (name) => void marks.push([name, Number(process.hrtime.bigint()) / 1e6]), flush() { channel.postMessage({ tid, marks }); marks = []; } };
})();\n`;
const M = (name) => `globalThis.__probe.mark(${JSON.stringify(name)});`;
function splice(source, anchor, { before = "", after = "" }) {
  const at = source.indexOf(anchor);
  if (at === -1) throw new Error(`probe anchor not found: ${anchor}`);
  return source.slice(0, at) + before + anchor + after + source.slice(at + anchor.length);
}
const THREAD_SPLICES = [
  ['parentPort.on("message", (run) => {', { after: M("w:recv") }],
  ["const done = parts.execute(image.sandbox, run, channel);", { after: M("w:executed") }],
  ["parentPort.postMessage(done.poisoned && !done.trapped ? { ...done, poisoned: false } : done);", { after: M("w:posted") }],
  ["image.restore();", { after: M("w:restored") + "globalThis.__probe.flush();" }],
  ["runtime.setMemoryLimit(limits.memoryBytes);", { before: M("x:setup") }],
  ["function execute() {", { after: M("x:execute") }],
  ["const compiled = context.evalCode(run.code, run.filename);", { before: M("x:configured"), after: M("x:compiled") }],
  ["const started = context.callFunction(startFn, runner, compiled.value);", { after: M("x:started") }],
  ['if (state.type === "fulfilled") {', { after: M("x:settled") }],
  ['    return {\n        type: "done",', { before: M("x:end") }],
];
const SHARED_SPLICES = [
  ['port.on("message", (message) => {', { after: M("w:recv") }],
  ["acquired = await pool.acquire();", { before: M("w:acquire"), after: M("w:acquired") }],
  ["const poisoned = result.poisoned", { before: M("w:ran") }],
  ["post(parts.encodeDone(runId, result.report, result.trapped) ?? { type: \"done\", runId, report: result.report, trapped: result.trapped });", { after: M("w:posted") + "globalThis.__probe.flush();" }],
  ["const manifest = context.newString(plan.manifestText.slice(0, headEnd));", { before: M("i:setup") }],
  ["manifest.dispose();", { after: M("i:configured") }],
  ["const compiled = await instance.evalCode(context, plan.code, plan.filename);", { after: M("i:compiled") }],
  ["const started = await instance.callFunction(context, startFn, runner.value, [compiled.value]);", { after: M("i:started") }],
  ['if (state.type === "fulfilled") {', { after: M("i:settled") }],
];

const workerMarks = [];
const workerTids = new Set();
const channel = new BroadcastChannel("mcpvm-warm-probe");
channel.onmessage = ({ data }) => {
  workerTids.add(data.tid);
  workerMarks.push(...data.marks);
};
channel.unref();

// --- per-thread CPU -------------------------------------------------------------------------------
function threadCpu() {
  const out = new Map();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      out.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}
function cpuSplit(before, after) {
  const main = String(process.pid);
  const split = { main: 0, worker: 0, other: 0 };
  for (const [tid, ms] of after) {
    const spent = ms - (before.get(tid) ?? 0);
    if (tid === main) split.main += spent;
    else if (workerTids.has(tid)) split.worker += spent;
    else split.other += spent;
  }
  return split;
}

// --- the engine -----------------------------------------------------------------------------------
const { createQuickJsEngine } = await import(`${dist}src/sandbox/engines/quickjs.js`);
const assets =
  mode === "thread"
    ? await (await import(`${dist}src/sandbox/engines/quickjs-assets.js`)).loadQuickJsAssets()
    : await (await import(`${dist}src/sandbox/engines/quickjs-shared-assets.js`)).loadSharedWorkerAssets();
let source = assets.workerSource;
for (const [anchor, where] of mode === "thread" ? THREAD_SPLICES : SHARED_SPLICES) source = splice(source, anchor, where);
assets.workerSource = PRELUDE + source;

const engine = await createQuickJsEngine({ workerMode: mode, warmWorkers: 1 });
let counter = 0;
const trivial = () => ({ code: `return 1; // run ${++counter}` });
const runOnce = async () => {
  mark("m:call");
  const result = await engine.run(trivial());
  mark("m:resolved");
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
};
for (let i = 0; i < 200; i++) await runOnce();
await sleep(50);

// --- the bare worker floor --------------------------------------------------------------------------
const bare = new Worker(`require("node:worker_threads").parentPort.on("message", (m) => require("node:worker_threads").parentPort.postMessage(m));`, { eval: true });
const echo = () => new Promise((done) => { bare.once("message", done); realPost.call(bare, "x"); });
for (let i = 0; i < 50; i++) await echo();

const ORDER_THREAD = ["m:call", "m:post", "w:recv", "x:setup", "x:execute", "x:configured", "x:compiled", "x:started", "x:settled", "x:end", "w:executed", "w:posted", "m:recv", "m:resolved"];
const ORDER_SHARED = ["m:call", "m:post", "w:recv", "w:acquire", "w:acquired", "i:setup", "i:configured", "i:compiled", "i:started", "i:settled", "w:ran", "w:posted", "m:recv", "m:resolved"];
const ORDER = mode === "thread" ? ORDER_THREAD : ORDER_SHARED;
const LABEL = {
  "m:post": "main: run() to the run's message posted (admission, gate, thread, run set-up)",
  "w:recv": "crossing: posted -> the worker's handler starts",
  "x:setup": "worker: handler -> execute's set-up (closures, headroom, pace, meter)",
  "x:execute": "worker: limits, hooks, interrupt handler",
  "x:configured": "worker: the bootstrap called with the manifest (before wave 32), configure with its first line (after)",
  "x:compiled": "worker: the script compiled",
  "x:started": "worker: runner.start (the script's main called)",
  "x:settled": "worker: its promise jobs",
  "x:end": "worker: the envelope read, handles freed, stop checks",
  "w:executed": "worker: the done message built",
  "w:posted": "worker: the result posted (structured clone)",
  "w:acquire": "worker: the run decoded, state made",
  "w:acquired": "worker: the instance and sandbox taken",
  "i:setup": "worker: runAsyncify's set-up",
  "i:configured": "worker: configure (the manifest's first line)",
  "i:compiled": "worker: the script compiled",
  "i:started": "worker: runner.start",
  "i:settled": "worker: its promise jobs",
  "w:ran": "worker: the report made, run resolved",
  "m:recv": "crossing: posted -> the main thread's message event",
  "m:resolved": "main: message -> run() resolved (settle, result built)",
};

async function batch(pauseMs) {
  const perRun = [];
  const floor = [];
  const c0 = threadCpu();
  const p0 = process.cpuUsage();
  const wall = [];
  for (let i = 0; i < RUNS; i++) {
    if (pauseMs > 0) await sleep(pauseMs);
    marks = [];
    workerMarks.length = 0;
    armed = true;
    const t0 = now();
    await runOnce();
    wall.push(now() - t0);
    armed = false;
    await sleep(0);
    perRun.push([...marks, ...workerMarks]);
  }
  await sleep(pauseMs || 1);
  const c1 = threadCpu();
  const p = process.cpuUsage(p0);
  for (let i = 0; i < 20; i++) {
    if (pauseMs > 0) await sleep(pauseMs);
    const t0 = now();
    await echo();
    floor.push(now() - t0);
  }
  return { perRun, floor, wall, cpu: cpuSplit(c0, c1), processCpu: (p.user + p.system) / 1000 };
}

function report(name, results) {
  const segments = new Map(ORDER.slice(1).map((step) => [step, []]));
  let complete = 0;
  const wall = [];
  const floor = [];
  const cpu = { main: 0, worker: 0, other: 0 };
  let processCpu = 0;
  let runs = 0;
  for (const result of results) {
    wall.push(...result.wall);
    floor.push(...result.floor);
    for (const key of Object.keys(cpu)) cpu[key] += result.cpu[key];
    processCpu += result.processCpu;
    runs += result.wall.length;
    for (const run of result.perRun) {
      const at = new Map(run);
      if (!ORDER.every((step) => at.has(step))) continue;
      complete++;
      for (let i = 1; i < ORDER.length; i++) segments.get(ORDER[i]).push((at.get(ORDER[i]) - at.get(ORDER[i - 1])) * 1000);
    }
  }
  const us = (v) => `${v.toFixed(0)} µs`;
  console.log(`\n${name}: ${runs} runs (${complete} with every mark), wall p50 ${us(summarize(wall).p50 * 1000)} p95 ${us(summarize(wall).p95 * 1000)}; bare worker echo p50 ${us(summarize(floor).p50 * 1000)}`);
  console.log(`  CPU per run (schedstat): main ${us((cpu.main / runs) * 1000)}, worker ${us((cpu.worker / runs) * 1000)}, other threads ${us((cpu.other / runs) * 1000)}; process (getrusage) ${us((processCpu / runs) * 1000)}`);
  let sum = 0;
  for (const [step, samples] of segments) {
    const s = summarize(samples);
    sum += s.p50;
    console.log(`  ${us(s.p50).padStart(8)} p50 ${us(s.p95).padStart(8)} p95  ${LABEL[step] ?? step}`);
  }
  console.log(`  ${us(sum).padStart(8)} sum of the p50s`);
}

const loadStart = loadavg()[0];
const warm = [];
const b2b = [];
for (let round = 0; round < ROUNDS; round++) {
  warm.push(await batch(PAUSE_MS));
  b2b.push(await batch(0));
}
console.log(`mode ${mode}, dist ${dist}, load ${loadStart.toFixed(2)} -> ${loadavg()[0].toFixed(2)}, ${ROUNDS} rounds of ${RUNS}`);
report(`warm (after a ${PAUSE_MS} ms pause)`, warm);
report("back to back", b2b);
await bare.terminate();
await engine.dispose();
