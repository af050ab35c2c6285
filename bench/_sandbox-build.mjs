// What building one sandbox costs, step by step, on this thread, for both QuickJS builds the engines use
// (the synchronous build a worker runs, the asyncify build of the in-thread engine), beside raw
// quickjs-emscripten's "runtime + context + eval + dispose" (the peers table's raw row). Part of the
// sandbox section (bench/sandbox.mjs). Each step's p50 over the same rounds, steps interleaved.
import * as QuickJs from "quickjs-emscripten-core";

const ROUNDS = 300;

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** (name -> µs samples), one lap at a time. */
function laps() {
  const steps = new Map();
  let t = performance.now();
  return {
    steps,
    start: () => void (t = performance.now()),
    lap: (name) => {
      const now = performance.now();
      (steps.get(name) ?? steps.set(name, []).get(name)).push((now - t) * 1000);
      t = now;
    },
  };
}

/** One build's steps: `newRuntime` makes a runtime of that build; `prepare`/`release` are the engine's own. */
function measure({ newRuntime, prepare, release, compilePiece, sources }) {
  const { steps, start, lap } = laps();
  for (let round = 0; round < ROUNDS + 20; round++) {
    if (round === 20) steps.clear();
    start();
    // As the peers' raw row: a runtime, a context, `1`, both disposed.
    const rawRuntime = newRuntime();
    const rawContext = rawRuntime.newContext();
    rawContext.evalCode("1").value.dispose();
    rawContext.dispose();
    rawRuntime.dispose();
    lap("raw quickjs-emscripten: runtime + context + eval `1` + dispose");
    const runtime = newRuntime();
    lap("new runtime");
    const context = runtime.newContext();
    lap("new context (QuickJS's intrinsics)");
    const bootstrap = context.evalCode(sources.bootstrap, "mcpvm-bootstrap.js");
    lap(`compile the bootstrap every sandbox holds (${sources.bootstrap.length} characters)`);
    for (const name of ["modules", "format"]) {
      const piece = context.evalCode(`"use strict";(${sources.pieces[name]})`);
      lap(`compile the ${name} piece (${sources.pieces[name].length} characters; ahead when idle, else on first use)`);
      piece.value.dispose();
    }
    bootstrap.value.dispose();
    context.dispose();
    runtime.dispose();
    start();
    const sandbox = prepare();
    lap("the engine's whole sandbox build (runtime, context, native functions, bootstrap)");
    for (const name of ["modules", "format"]) compilePiece(sandbox, sources, name);
    start();
    release(sandbox);
    lap("free a sandbox after its run (context, runtime)");
  }
  return [...steps].map(([name, samples]) => ({ name, p50Us: p50(samples) }));
}

/** Both builds' breakdowns from `dist` (a file URL ending in "/"). */
export async function sandboxBuildBreakdown(dist) {
  const { guestBootstrapSource, guestPieces } = await import(`${dist}src/sandbox/guest/bootstrap-source.js`);
  const { prepareQuickJsSandbox, releaseQuickJsSandbox, compileQuickJsPiece } = await import(`${dist}src/sandbox/engines/quickjs-sandbox.js`);
  const { prepareInlineSandbox, releaseInlineSandbox } = await import(`${dist}src/sandbox/engines/quickjs-inline-sandbox.js`);
  const { newInlineInstance } = await import(`${dist}src/sandbox/engines/quickjs-inline-adapter.js`);
  const { loadInlineAssets } = await import(`${dist}src/sandbox/engines/quickjs-inline-assets.js`);
  const sources = { bootstrap: guestBootstrapSource(), pieces: guestPieces() };
  const sync = await QuickJs.newQuickJSWASMModuleFromVariant((await import("@jitl/quickjs-wasmfile-release-sync")).default);
  const instance = await newInlineInstance(await loadInlineAssets(), 512 * 1024 * 1024);
  return {
    sync: measure({
      newRuntime: () => sync.newRuntime(),
      prepare: () => prepareQuickJsSandbox(sync, sources),
      release: releaseQuickJsSandbox,
      compilePiece: compileQuickJsPiece,
      sources,
    }),
    asyncify: measure({
      newRuntime: () => instance.newRuntime(),
      prepare: () => prepareInlineSandbox(instance, sources),
      release: releaseInlineSandbox,
      compilePiece: compileQuickJsPiece,
      sources,
    }),
  };
}
