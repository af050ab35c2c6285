// Feasibility probe for an in-thread QuickJS engine on the asyncify build (issue 15).
// Run: node bench/_inline-probe.mjs
// Checks that a host function returning a Promise can suspend the guest (a) at top level, (b) inside a
// promise job (after an await), (c) 10,000 times in a loop; measures the host call round trip, a fresh
// context per run, RSS per live suspended sandbox (one module instance each), and that the interrupt
// handler stops `while(true){}` and a catastrophic regex, and that a memory limit holds.
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { setImmediate } from "node:timers";

const { WebAssembly } = globalThis;

const require = createRequire(import.meta.url);
const core = require("quickjs-emscripten-core");
const VARIANT = "@jitl/quickjs-wasmfile-release-asyncify";
const published = require(VARIANT).default;
const wasmModule = await WebAssembly.compile(await readFile(require.resolve(`${VARIANT}/wasm`)));
const emscripten = require(`${VARIANT}/emscripten-module`);
const variant = { type: "async", importFFI: published.importFFI, importModuleLoader: () => Promise.resolve(emscripten) };

async function newModule(initialPages = 256) {
  const wasmMemory = new WebAssembly.Memory({ initial: initialPages, maximum: 8192 });
  return core.newQuickJSAsyncWASMModuleFromVariant(core.newVariant(variant, { wasmModule, wasmMemory }));
}

/** An async ExecutePendingJob: the FFI's _MaybeAsync is the raw export (cwrap shortcut), which cannot report a suspension. */
function asyncJobs(runtime) {
  const r = /** @type {any} */ (runtime);
  const emModule = r.module;
  const exec = emModule.cwrap("QTS_ExecutePendingJob", "number", ["number", "number", "number"], { async: true });
  return async (context) => {
    const out = r.memory.newMutablePointerArray(1);
    try {
      const valuePtr = await exec(r.rt.value, -1, out.value.ptr);
      const ctxPtr = out.value.typedArray[0];
      if (ctxPtr === 0) {
        r.ffi.QTS_FreeValuePointerRuntime(r.rt.value, valuePtr);
        return { ok: true, jobs: 0 };
      }
      const handle = context.getMemory(r.rt.value).heapValueHandle(valuePtr);
      if (context.typeof(handle) === "number") {
        const jobs = context.getNumber(handle);
        handle.dispose();
        return { ok: true, jobs };
      }
      return { ok: false, error: handle };
    } finally {
      out.dispose();
    }
  };
}

/** module.newRuntime() on the asyncify module unregisters the runtime before freeing it, so host refs freed by the final GC throw: build it in the sync module's order. */
function newRuntime(module) {
  const m = /** @type {any} */ (module);
  const rt = new core.Lifetime(m.ffi.QTS_NewRuntime(), undefined, (ptr) => {
    m.ffi.QTS_FreeRuntime(ptr);
    m.callbacks.deleteRuntime(ptr);
  });
  return new core.QuickJSAsyncRuntime({ module: m.module, ffi: m.ffi, rt, callbacks: m.callbacks });
}

function setup(module, { interrupt } = {}) {
  const runtime = newRuntime(module);
  const context = runtime.newContext();
  let calls = 0;
  const fn = context.newFunction("host", (arg) => {
    calls++;
    const n = context.getNumber(arg);
    return new Promise((resolve) => setImmediate(() => resolve(context.newNumber(n + 1))));
  });
  const fast = context.newFunction("fast", (arg) => {
    calls++;
    const n = context.getNumber(arg);
    return Promise.resolve().then(() => context.newNumber(n + 1));
  });
  context.setProp(context.global, "host", fn);
  context.setProp(context.global, "fast", fast);
  fn.dispose();
  fast.dispose();
  if (interrupt) runtime.setInterruptHandler(interrupt);
  return { runtime, context, jobs: asyncJobs(runtime), calls: () => calls };
}

async function runScript(s, code) {
  // Everything in a promise job, so the only entry that can suspend is ExecutePendingJob.
  const result = await s.context.evalCodeAsync(`(async () => { await 0; ${code} })()`);
  if (result.error) throw new Error("eval: " + JSON.stringify(s.context.dump(result.error)));
  const promise = result.value;
  for (;;) {
    const jobs = await s.jobs(s.context);
    if (!jobs.ok) {
      const e = s.context.dump(jobs.error);
      jobs.error.dispose();
      promise.dispose();
      return { error: e };
    }
    const state = s.context.getPromiseState(promise);
    if (state.type === "fulfilled") {
      const v = s.context.dump(state.value);
      state.value.dispose();
      promise.dispose();
      return { value: v };
    }
    if (state.type === "rejected") {
      const e = s.context.dump(state.error);
      state.error.dispose();
      promise.dispose();
      return { error: e };
    }
    if (jobs.jobs === 0) await new Promise((r) => setImmediate(r));
  }
}

const results = {};
const module = await newModule();

// (a) top level: evalCodeAsync (Eval_MaybeAsync goes through ccall, which does report a suspension)
{
  const s = setup(module);
  const r = await s.context.evalCodeAsync("host(1) + host(10)");
  results.topLevel = s.context.dump(r.value ?? r.error);
  (r.value ?? r.error).dispose();
  s.context.dispose();
  s.runtime.dispose();
}
// (b) inside a promise job, after an await
{
  const s = setup(module);
  results.inJob = await runScript(s, "const a = host(1); await null; const b = host(a); const c = await Promise.resolve(host(b)); return [a, b, c];");
  s.context.dispose();
  s.runtime.dispose();
}
// (c) 10,000 calls in a loop inside a job; round trip with a microtask-resolved host promise
{
  const s = setup(module);
  const warm = await runScript(s, "let x = 0; for (let i = 0; i < 2000; i++) x = fast(x); return x;");
  const N = 10_000;
  let t = performance.now();
  const r = await runScript(s, `let x = 0; for (let i = 0; i < ${N}; i++) x = fast(x); return x;`);
  const withCalls = performance.now() - t;
  t = performance.now();
  await runScript(s, `let x = 0; const f = (n) => n + 1; for (let i = 0; i < ${N}; i++) x = f(x); return x;`);
  const without = performance.now() - t;
  results.loop = { warm: warm.value, value: r.value, calls: s.calls(), hostCallUs: ((withCalls - without) * 1000) / N, loopMs: withCalls };
  s.context.dispose();
  s.runtime.dispose();
}
// fresh runtime + context per run, back to back (trivial script)
{
  const times = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    const s = setup(module);
    const r = await s.context.evalCodeAsync("1 + 1");
    r.value.dispose();
    s.context.dispose();
    s.runtime.dispose();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  results.freshContext = { p50Ms: times[100], p95Ms: times[190] };
}
// interrupt: while(true) and a catastrophic regex, deadline 200 ms
for (const [name, code] of [
  ["while", "while (true) {}"],
  ["regex", "/^(a+)+$/.test('a'.repeat(40) + '!')"],
]) {
  const deadline = performance.now() + 200;
  const s = setup(module, { interrupt: () => performance.now() > deadline });
  const t = performance.now();
  const r = await runScript(s, code);
  results[`interrupt_${name}`] = { ms: Math.round(performance.now() - t), error: r.error };
  s.context.dispose();
  s.runtime.dispose();
}
// memory limit
{
  const s = setup(module);
  s.runtime.setMemoryLimit(8 * 1024 * 1024);
  const r = await runScript(s, "const keep = []; for (;;) keep.push([1,2,3,4,5,6,7,8]);");
  results.memoryLimit = r.error;
  s.context.dispose();
  s.runtime.dispose();
}
// the same module still serves a run after all that
{
  const s = setup(module);
  results.healthy = await runScript(s, "return host(41);");
  s.context.dispose();
  s.runtime.dispose();
}

// RSS per live suspended sandbox: N modules, each with a run suspended in a host call
{
  globalThis.gc?.();
  const base = process.memoryUsage();
  const N = 20;
  const releases = [];
  const live = [];
  for (let i = 0; i < N; i++) {
    const m = await newModule();
    const runtime = newRuntime(m);
    const context = runtime.newContext();
    const f = context.newFunction("block", () => new Promise((resolve) => releases.push(() => resolve(context.newNumber(1)))));
    context.setProp(context.global, "block", f);
    f.dispose();
    const s = { runtime, context, jobs: asyncJobs(runtime) };
    live.push({ s, done: runScript(s, "const data = []; for (let i = 0; i < 2000; i++) data.push({ i, s: 'x' + i }); return block() + data.length;") });
  }
  await new Promise((r) => setTimeout(r, 50));
  globalThis.gc?.();
  const peak = process.memoryUsage();
  for (const release of releases) release();
  const values = await Promise.all(live.map((l) => l.done));
  results.rss = {
    perSandboxMb: (peak.rss - base.rss) / N / 1048576,
    perSandboxExternalMb: (peak.external + peak.arrayBuffers - base.external - base.arrayBuffers) / N / 1048576,
    allReturned: values.every((v) => v.value === 2001),
  };
}
console.log(JSON.stringify(results, null, 2));
