// Where building and running a trivial sandbox goes, step by step, on the caller's thread, for the
// synchronous build (what a worker does) and the asyncify build (the in-thread engine), beside raw
// quickjs-emscripten's "runtime + context + eval + dispose". Not part of `npm run bench`.
// Usage: node bench/_sandbox-breakdown.mjs [dist dir, default dist/]
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as QuickJs from "quickjs-emscripten-core";

const dist = pathToFileURL(resolve(process.argv[2] ?? "dist")).href + "/";
const bootstrapModule = await import(`${dist}src/sandbox/guest/bootstrap-source.js`);
const { guestBootstrapSource } = bootstrapModule;
const { prepareQuickJsSandbox, releaseQuickJsSandbox } = await import(`${dist}src/sandbox/engines/quickjs-sandbox.js`);
const { transformGuestSource } = await import(`${dist}src/sandbox/guest/transform.js`);
const { guestManifest } = await import(`${dist}src/sandbox/guest/bootstrap-source.js`);
const sync = (await import("@jitl/quickjs-wasmfile-release-sync")).default;
const QJS = await QuickJs.newQuickJSWASMModuleFromVariant(sync);
const bootstrap = guestBootstrapSource();
// Before the bootstrap was split into pieces, prepare took the source text itself.
const sources = bootstrapModule.guestPieces === undefined ? bootstrap : { bootstrap, pieces: bootstrapModule.guestPieces() };
const code = transformGuestSource("return 1").source.code;
const manifestText = JSON.stringify(guestManifest({}, 1e6));

const N = Number(process.env.N ?? 400);
const steps = new Map();
const add = (name, ms) => (steps.get(name) ?? steps.set(name, []).get(name)).push(ms * 1000);
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function raw() {
  let t = performance.now();
  const rt = QJS.newRuntime();
  const ctx = rt.newContext();
  const r = ctx.evalCode("1");
  r.value.dispose();
  ctx.dispose();
  rt.dispose();
  add("raw: runtime + context + eval + dispose", performance.now() - t);
}

function ours() {
  let t = performance.now();
  const lap = (name) => {
    const now = performance.now();
    add(name, now - t);
    t = now;
  };
  const rt = QJS.newRuntime();
  lap("prepare: newRuntime");
  const ctx = rt.newContext();
  lap("prepare: newContext");
  ctx.dispose();
  rt.dispose();
  lap("release bare runtime+context");
  const sandbox = prepareQuickJsSandbox(QJS, sources);
  lap("prepare: whole (runtime, context, natives, bootstrap compile)");
  const { context, runtime } = sandbox;
  runtime.setMemoryLimit(64 * 1024 * 1024);
  runtime.setMaxStackSize(256 * 1024);
  runtime.setInterruptHandler(() => false);
  lap("run: limits + interrupt handler");
  const manifest = context.newString(manifestText);
  const runner = context.unwrapResult(context.callFunction(sandbox.bootstrap, context.undefined, sandbox.native, manifest));
  manifest.dispose();
  lap("run: call bootstrap (globals, codec)");
  const compiled = context.unwrapResult(context.evalCode(code, "guest.js"));
  lap("run: compile user code");
  const startFn = context.getProp(runner, "start");
  const started = context.unwrapResult(context.callFunction(startFn, runner, compiled));
  startFn.dispose();
  compiled.dispose();
  runtime.executePendingJobs().unwrap();
  const state = context.getPromiseState(started);
  context.getString(state.value);
  state.value.dispose();
  started.dispose();
  runner.dispose();
  lap("run: start + jobs + result");
  releaseQuickJsSandbox(sandbox);
  lap("release sandbox");
}

for (let i = 0; i < 30 + N; i++) {
  if (i === 30) steps.clear();
  raw();
  ours();
}
console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" / ")}; bootstrap ${bootstrap.length} chars; N=${N}; sync build on the main thread`);
for (const [name, xs] of steps) console.log(`${p50(xs).toFixed(0).padStart(6)} µs  ${name}`);
