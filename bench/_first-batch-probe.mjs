// What the first batch of the memory rows carries (bench/_sandbox-memory.mjs; wave 20): for each asyncify
// engine, the process's RSS by kind of mapping before the engine and once ten sandboxes are blocked in a
// host call, with V8's optimizing wasm tier on (the default) and off (--liftoff-only), and the wasm
// functions whose TurboFan compile needed more than 5 MB of compiler memory, with the process's RSS peak
// sampled from outside every 10 ms. Files starting with _ are not sections of `npm run bench`.
//   node bench/_first-batch-probe.mjs [kind ...]      (after `npm run build`)
//   node [--liftoff-only | --wasm-tiering-budget=N] bench/_first-batch-probe.mjs --compute [kind]
//     what a tier choice does to guest compute: 24 runs of two workloads, 100 ms apart, in this process.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ENGINES } from "./_sandbox-engines.mjs";

const SELF = fileURLToPath(import.meta.url);
const DIST = new URL("../dist/", import.meta.url).href;
const MEMORY = fileURLToPath(new URL("./_sandbox-memory.mjs", import.meta.url));
const MB = 1024 * 1024;

/**
 * RSS (MB) of this process by kind of mapping. The rw part of a wasm memory is a VMA of its current
 * size (16 MiB: the build's initial memory) beside its guard reservation; V8's heap grows by pages of
 * 256 KB to 1 MB; glibc's thread arenas are 64 MB mappings; the rest of the anonymous memory is
 * mostly large malloc blocks (mmapped one by one), which is where V8's compiler zones land.
 */
function rssByMapping() {
  const out = {};
  let kind;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head !== null) {
      const size = (parseInt(head[2], 16) - parseInt(head[1], 16)) / MB;
      const [perms, name] = [head[3], head[4]];
      if (name.startsWith("/")) kind = name.includes("node") ? "node binary (pages of its code first used)" : "other files";
      else if (name !== "") kind = name === "[heap]" ? "main malloc arena ([heap])" : name;
      else if (perms.includes("x")) kind = "machine code (wasm and JS, V8's code space)";
      else if (size === 16) kind = "wasm memories (16 MiB each, touched pages)";
      else if (size === 0.25 || size === 0.5 || size === 1) kind = "V8 heap pages";
      else if (size >= 63.9 && size <= 64.1) kind = "glibc thread arenas (64 MB)";
      else kind = "other anonymous (large malloc blocks: compiler zones; stacks)";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss !== null && kind !== undefined) out[kind] = (out[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return out;
}

/** Child: the memory rows' first batch (same program, same host call), smaps taken once all ten wait. */
async function smapsChild(kind) {
  const factory = await ENGINES[kind](DIST);
  const before = rssByMapping();
  const engine = await factory.create({ maxWorkers: 10, idleWorkerMs: 200 });
  let arrived = 0;
  let atTen;
  const meet = () =>
    new Promise((resolve) => {
      if (++arrived === 10) atTen = rssByMapping();
      const check = setInterval(() => arrived % 10 === 0 && (clearInterval(check), resolve(arrived)), 5);
    });
  const code = 'const keep = new Array(30000).fill(0).map((_, i) => i); return require("host:sync").meet() + keep.length;';
  const results = await Promise.all(Array.from({ length: 10 }, () => engine.run({ code, modules: { sync: { meet } } })));
  await engine.dispose();
  process.stdout.write(JSON.stringify({ before, atTen, failed: results.filter((result) => !result.ok).length }));
  process.exit(0);
}

function child(args, onSample) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.stderr.on("data", (chunk) => (err += chunk));
    const sampler = onSample === undefined ? undefined : setInterval(() => onSample(proc.pid), 10);
    proc.on("error", reject);
    proc.on("exit", (code) => {
      clearInterval(sampler);
      if (code === 0) resolve(out);
      else reject(new Error(`child exited with ${code}: ${err.slice(-500)}`));
    });
  });
}

async function breakdown(kind, flags) {
  const { before, atTen, failed } = JSON.parse(await child(["--expose-gc", ...flags, SELF, "--smaps-child", kind]));
  const kinds = [...new Set([...Object.keys(before), ...Object.keys(atTen)])];
  const rows = kinds.map((name) => [name, before[name] ?? 0, atTen[name] ?? 0]).filter(([, a, b]) => Math.abs(b - a) >= 0.2);
  rows.sort((x, y) => y[2] - y[1] - (x[2] - x[1]));
  const total = rows.reduce((sum, [, a, b]) => sum + b - a, 0);
  console.log(`\n${kind} ${flags.join(" ") || "(default tiers)"}: RSS added with ten blocked ${total.toFixed(1)} MB (${(total / 10).toFixed(2)} MB a sandbox), failed ${failed}`);
  for (const [name, a, b] of rows) console.log(`  ${name.padEnd(64)} ${a.toFixed(1).padStart(6)} -> ${b.toFixed(1).padStart(6)} MB  (+${(b - a).toFixed(1)})`);
}

/** The memory rows' child (first and second batch) under --trace-wasm-compilation-times, RSS sampled from outside. */
async function compiles(kind) {
  let peak = 0;
  const sample = (pid) => {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss !== null) peak = Math.max(peak, Number(rss[1]) / 1024);
    } catch {
      // The child has exited between two samples.
    }
  };
  const started = performance.now();
  const out = await child(["--expose-gc", "--trace-wasm-compilation-times", MEMORY, "--rss-child", kind, DIST], sample);
  const big = [...out.matchAll(/#(\d+) using TurboFan, took (\d+) ms and (\d+) \/ \d+ max\/total bytes; bodysize (\d+) codesize (\d+)/g)]
    .map((m) => ({ fn: m[1], ms: Number(m[2]), zoneMb: Number(m[3]) / MB, bodyKb: Number(m[4]) / 1024, codeKb: Number(m[5]) / 1024 }))
    .filter((c) => c.zoneMb > 5)
    .sort((a, b) => b.zoneMb - a.zoneMb);
  const rows = JSON.parse(/\{"baselineMb".*?\}/.exec(out)[0]);
  console.log(`\n${kind}: memory rows' child, ${((performance.now() - started) / 1000).toFixed(1)} s; first batch ${rows.perSandboxMb.toFixed(1)} MB a sandbox (VmHWM ${rows.peakMb.toFixed(0)}, baseline ${rows.baselineMb.toFixed(0)} MB); process RSS peak sampled every 10 ms ${peak.toFixed(0)} MB`);
  for (const c of big) console.log(`  wasm function #${c.fn} (${c.bodyKb.toFixed(1)} KB of wasm -> ${c.codeKb.toFixed(0)} KB of code): TurboFan ${c.ms} ms, compiler zone ${c.zoneMb.toFixed(1)} MB at most`);
}

/** Guest compute under this process's V8 flags: first run, then the medians of runs 2-12 and 13-24 (ms). */
async function compute(kind) {
  const engine = await (await ENGINES[kind](DIST)).create({});
  const loads = {
    arith: "let s = 0; for (let i = 0; i < 1000000; i++) s = (s * 31 + i) % 1000003; return s;",
    objects:
      "const m = new Map(); for (let i = 0; i < 60000; i++) { const o = { k: 'x' + (i % 977), v: [i, i * 2] }; m.set(o.k, (m.get(o.k) ?? 0) + o.v[1]); } return JSON.stringify([...m.entries()].sort()).length;",
  };
  const times = Object.fromEntries(Object.keys(loads).map((name) => [name, []]));
  for (let i = 0; i < 24; i++) {
    for (const [name, code] of Object.entries(loads)) {
      const started = performance.now();
      const result = await engine.run({ code: `${code} // ${i}` });
      if (!result.ok) throw new Error(JSON.stringify(result).slice(0, 300));
      times[name].push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await engine.dispose();
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const text = Object.entries(times).map(([name, t]) => `${name}: first ${t[0].toFixed(0)} ms, runs 2-12 median ${median(t.slice(1, 12)).toFixed(0)}, runs 13-24 median ${median(t.slice(12)).toFixed(0)}`);
  console.log(`${kind} ${process.execArgv.join(" ") || "(default tiers)"} ${text.join("; ")}`);
}

if (process.argv[2] === "--smaps-child") {
  await smapsChild(process.argv[3]);
} else if (process.argv[2] === "--compute") {
  await compute(process.argv[3] ?? "quickjs-inline");
} else {
  const kinds = process.argv.length > 2 ? process.argv.slice(2) : ["quickjs-inline", "quickjs (shared)"];
  console.log(`node ${process.version}, V8 ${process.versions.v8}`);
  for (const kind of kinds) {
    await breakdown(kind, []);
    await breakdown(kind, ["--liftoff-only"]);
    await compiles(kind);
  }
}
