// Sandbox engine benchmark: cold start, warm run, host-call overhead, peak RSS of 10 concurrent
// sandboxes. Imports the built engines from ../dist (run `npm run build` first). Engines are listed
// by kind in ENGINES; an engine that cannot start here is reported with its reason, never faked.
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);
const dist = (path) => new URL(`../dist/src/sandbox/${path}`, import.meta.url).href;

/** kind -> () => Promise<{ create(options): Promise<SandboxEngine> } | { unavailable: string }> */
const ENGINES = {
  quickjs: async () => {
    const { createQuickJsEngine } = await import(dist("engines/quickjs.js"));
    return { create: (options = {}) => createQuickJsEngine(options) };
  },
  hyperlight: async () => {
    const { probeHyperlight, createHyperlightEngine } = await import(dist("engines/hyperlight/index.js"));
    const probe = await probeHyperlight();
    if (!probe.ok) return { unavailable: probe.reason };
    return { create: (options = {}) => createHyperlightEngine(options) };
  },
};

const TARGETS = { warmP50Ms: 2, coldP50Ms: 25, hostCallP50Us: 100, rss10Mb: 250 };

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(values) {
  return { p50: percentile(values, 50), p95: percentile(values, 95), n: values.length };
}

async function mustRun(engine, request) {
  const result = await engine.run(request);
  if (!result.ok) throw new Error(`benchmark run failed: ${result.error.code}: ${result.error.message}`);
  return result;
}

async function coldStart(factory) {
  const times = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const engine = await factory.create({ warmWorkers: 1 });
    await mustRun(engine, { code: "return 1" });
    times.push(performance.now() - started);
    await engine.dispose();
  }
  return { first: times[0], afterFirst: summary(times.slice(1)) };
}

async function warmRun(engine) {
  for (let i = 0; i < 100; i++) await mustRun(engine, { code: "return 1" });
  const times = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await mustRun(engine, { code: "return 1" });
    times.push(performance.now() - started);
  }
  return summary(times);
}

/** Per-call cost = (loop with a host call - same loop without) / calls, measured inside one engine. */
async function hostCallOverhead(engine) {
  const calls = 2000;
  const modules = { bench: { noop: () => null } };
  const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${calls}; i++) { ${body} } return 0;`;
  for (let i = 0; i < 3; i++) await mustRun(engine, { code: loop("m.noop();"), modules });
  const perCallUs = [];
  for (let i = 0; i < 9; i++) {
    let started = performance.now();
    await mustRun(engine, { code: loop("m.noop();"), modules });
    const withCalls = performance.now() - started;
    started = performance.now();
    await mustRun(engine, { code: loop("void i;"), modules });
    const without = performance.now() - started;
    perCallUs.push(((withCalls - without) * 1000) / calls);
  }
  return summary(perCallUs);
}

/** Runs in a child process so the parent's heap and other engines do not pollute the number. */
function measureRss(kind) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SELF, "--rss-child", kind], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`rss child exited with ${code}`))));
  });
}

async function rssChild(kind) {
  const factory = await ENGINES[kind]();
  const baselineMb = process.memoryUsage().rss / 1e6;
  const engine = await factory.create({ maxWorkers: 10, warmWorkers: 1 });
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
  process.stdout.write(JSON.stringify({ baselineMb, peakMb: peak / 1e6, failed }));
}

async function benchEngine(kind) {
  const factory = await ENGINES[kind]();
  if (factory.unavailable !== undefined) return { kind, unavailable: factory.unavailable };
  const cold = await coldStart(factory);
  const engine = await factory.create({ warmWorkers: 1 });
  try {
    const warm = await warmRun(engine);
    const hostCall = await hostCallOverhead(engine);
    const rss = await measureRss(kind);
    return { kind, cold, warm, hostCall, rss };
  } finally {
    await engine.dispose();
  }
}

const fmt = (n, digits = 2) => (n === undefined ? "n/a" : n.toFixed(digits));
const mark = (value, target) => (value <= target ? "hit" : "miss");

function markdown(results, machine) {
  const lines = [
    `Machine: ${machine.cpus} CPUs, load average ${machine.load.map((l) => l.toFixed(2)).join(" / ")} at start (other work shares these cores).`,
    "",
    "| engine | cold first (ms) | cold p50 / p95 after first (ms) | warm run p50 / p95 (ms) | host call p50 / p95 (µs) | 10 concurrent: peak RSS (MB) |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    if (r.unavailable !== undefined) {
      lines.push(`| ${r.kind} | unavailable: ${r.unavailable} | | | | |`);
      continue;
    }
    lines.push(
      `| ${r.kind} | ${fmt(r.cold.first, 1)} | ${fmt(r.cold.afterFirst.p50, 1)} / ${fmt(r.cold.afterFirst.p95, 1)} | ${fmt(r.warm.p50)} / ${fmt(r.warm.p95)} | ${fmt(r.hostCall.p50, 1)} / ${fmt(r.hostCall.p95, 1)} | ${fmt(r.rss.peakMb, 0)} (baseline ${fmt(r.rss.baselineMb, 0)}) |`,
    );
  }
  const quickjs = results.find((r) => r.kind === "quickjs" && r.unavailable === undefined);
  if (quickjs !== undefined) {
    lines.push(
      "",
      `Targets (quickjs): warm p50 <= ${TARGETS.warmP50Ms} ms: ${mark(quickjs.warm.p50, TARGETS.warmP50Ms)}; ` +
        `cold p50 <= ${TARGETS.coldP50Ms} ms: ${mark(quickjs.cold.afterFirst.p50, TARGETS.coldP50Ms)}; ` +
        `host call p50 <= ${TARGETS.hostCallP50Us} µs: ${mark(quickjs.hostCall.p50, TARGETS.hostCallP50Us)}; ` +
        `10 sandboxes <= ${TARGETS.rss10Mb} MB: ${mark(quickjs.rss.peakMb, TARGETS.rss10Mb)}.`,
      "",
      "Cold = a new engine (worker thread + wasm instance) through its first run; warm = a run on a started engine " +
        "(every run still gets a fresh QuickJS runtime and context). Host call = difference between a loop with and " +
        "without a trivial host call, per call, within one engine.",
    );
  }
  return lines.join("\n");
}

export default async function benchSandbox() {
  const machine = { cpus: cpus().length, load: loadavg() };
  const results = [];
  for (const kind of Object.keys(ENGINES)) results.push(await benchEngine(kind));
  return { title: "Sandbox engines", markdown: markdown(results, machine), data: { machine, targets: TARGETS, results } };
}

if (process.argv[1] === SELF && process.argv[2] === "--rss-child") {
  await rssChild(process.argv[3]);
} else if (process.argv[1] === SELF) {
  const report = await benchSandbox();
  console.log(report.markdown);
}
