// One process's measurement for bench/compute.mjs: every workload (bench/_compute-workloads.mjs) on every
// kind named, in interleaved rounds (the order of kinds reversed every other round), so the ratios between
// kinds come from one process at one load. Run as a child (`node [V8 flags] bench/_compute-rounds.mjs
// <dist> <kind,kind,...>`) so that each Node and each set of V8 flags gets a process of its own; prints JSON.
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { summarize } from "./_stats.mjs";
import { WORKLOADS } from "./_compute-workloads.mjs";

const WARMUP_ROUNDS = 2;
const ROUNDS = Number(process.env.MCPVM_BENCH_COMPUTE_ROUNDS ?? 7);
const LIMITS = { cpuMs: 60_000, wallMs: 60_000 };
/** Only these workloads (comma-separated keys), for probes; the section runs them all. */
const ONLY = process.env.MCPVM_BENCH_COMPUTE_ONLY?.split(",");

/**
 * kind -> (dist) => a runner `(code) => Promise<void>` and its dispose. The engines are mcpvm's; the raw
 * builds are quickjs-emscripten itself with no limit and no interrupt handler, on this thread: the floor
 * each build sets, whatever mcpvm does around it.
 */
const KINDS = {
  thread: (dist) => engine(dist, "quickjs.js", "createQuickJsEngine", { workerMode: "thread" }),
  shared: (dist) => engine(dist, "quickjs.js", "createQuickJsEngine", { workerMode: "shared" }),
  // Shared mode as it was before computing runs moved to a thread (quickjs-shared-move.ts): the asyncify build throughout.
  "shared-stay": (dist) => engine(dist, "quickjs.js", "createQuickJsEngine", { workerMode: "shared", moveToThreadAfterCpuMs: Infinity }),
  inline: (dist) => engine(dist, "quickjs-inline.js", "createQuickJsInlineEngine", {}),
  "raw sync": (dist) => raw(dist, "sync"),
  "raw asyncify": (dist) => raw(dist, "asyncify"),
};

async function engine(dist, file, factory, options) {
  const created = await (await import(`${dist}src/sandbox/engines/${file}`))[factory](options);
  return {
    run: async (code) => {
      const result = await created.run({ code, limits: LIMITS });
      if (!result.ok) throw new Error(`benchmark run failed: ${result.error.code}: ${result.error.message}`);
    },
    dispose: () => created.dispose(),
  };
}

async function raw(dist, build) {
  const require = createRequire(new URL("../package.json", import.meta.url));
  // As the engines do before compiling QuickJS (Node 20: a small frame for the interpreter loop).
  (await import(`${dist}src/sandbox/engines/wasm-frame-size.js`)).keepOptimizedWasmFramesSmall();
  const core = require("quickjs-emscripten-core");
  const variant = require(`@jitl/quickjs-wasmfile-release-${build}`).default;
  const module = build === "sync" ? await core.newQuickJSWASMModuleFromVariant(variant) : await core.newQuickJSAsyncWASMModuleFromVariant(variant);
  return {
    run: async (code) => {
      const runtime = module.newRuntime();
      runtime.setMemoryLimit(512 * 1024 * 1024);
      runtime.setMaxStackSize(512 * 1024);
      const context = runtime.newContext();
      try {
        const result = context.evalCode(`(function () { ${code} })()`);
        if (result.error) {
          const error = context.dump(result.error);
          result.error.dispose();
          throw new Error(`benchmark run failed: ${JSON.stringify(error)}`);
        }
        result.value.dispose();
      } finally {
        context.dispose();
        runtime.dispose();
      }
    },
    dispose: async () => undefined,
  };
}

export async function computeRounds(dist, kinds) {
  const runners = {};
  for (const kind of kinds) runners[kind] = await KINDS[kind](dist);
  const loadBefore = loadavg()[0];
  const workloads = WORKLOADS.filter((workload) => ONLY === undefined || ONLY.includes(workload.key));
  const samples = Object.fromEntries(workloads.map((workload) => [workload.key, Object.fromEntries(kinds.map((kind) => [kind, []]))]));
  let seed = 0;
  try {
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const workload of workloads) {
        for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
          const code = workload.code(seed++ % 97);
          const started = performance.now();
          await runners[kind].run(code);
          const ms = performance.now() - started;
          if (round >= WARMUP_ROUNDS) samples[workload.key][kind].push(ms);
        }
      }
    }
  } finally {
    await Promise.all(Object.values(runners).map((runner) => runner.dispose()));
  }
  const byWorkload = Object.fromEntries(
    Object.entries(samples).map(([key, byKind]) => [key, Object.fromEntries(Object.entries(byKind).map(([kind, times]) => [kind, summarize(times)]))]),
  );
  return { node: process.version, v8: process.versions.v8, flags: process.execArgv, rounds: ROUNDS, loadBefore, loadAfter: loadavg()[0], byWorkload };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [dist, kinds] = process.argv.slice(2);
  const result = await computeRounds(dist, kinds.split(","));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
