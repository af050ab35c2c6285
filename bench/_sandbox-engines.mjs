// The engines the sandbox section measures, and small helpers its parts share (bench/sandbox.mjs,
// bench/_sandbox-memory.mjs). Files starting with _ are not sections of `npm run bench`.

/** kind -> (distRoot) => Promise<{ create(options): Promise<SandboxEngine> } | { unavailable: string }> */
export const ENGINES = {
  // One run per worker thread (workerMode "thread": `mcpvm run`'s, and MCPVM_QUICKJS_WORKERS=thread).
  quickjs: (dist) => workerEngine(dist, { workerMode: "thread" }),
  // The worker engine as it was before sandbox images: every sandbox built and freed (the same rounds, for the before/after).
  "quickjs (no image)": (dist) => workerEngine(dist, { workerMode: "thread", sandboxSnapshots: false }),
  // Several runs per worker thread, the default since wave 12: the asyncify build inside the threads (workerMode "shared").
  "quickjs (shared)": (dist) => sharedWorkerEngine(dist, {}),
  // QuickJS's asyncify build on the caller's thread: a host call suspends the wasm stack (no thread crossing).
  "quickjs-inline": (dist) => inlineEngine(dist, {}),
  "quickjs-inline (no image)": (dist) => inlineEngine(dist, { sandboxSnapshots: false }),
  hyperlight: async (dist) => {
    const { probeHyperlight, createHyperlightEngine } = await import(`${dist}src/sandbox/engines/hyperlight/index.js`);
    const probe = await probeHyperlight();
    if (!probe.ok) return { unavailable: probe.reason };
    return { create: (options = {}) => createHyperlightEngine(options) };
  },
};

async function workerEngine(dist, fixed) {
  const { createQuickJsEngine } = await import(`${dist}src/sandbox/engines/quickjs.js`);
  const { sharedQuickJsWorkers } = await import(`${dist}src/sandbox/engines/quickjs-shared-pool.js`);
  return {
    create: (options = {}) => createQuickJsEngine({ ...options, ...fixed }),
    // Until no worker is starting in the background (a process that has been up a while).
    settle: async () => {
      while (sharedQuickJsWorkers().starting > 0) await sleep(20);
    },
    // Engines with this wasm memory cap were made with idleWorkerMs 1: their pool ends its workers then.
    retire: async (maxWasmMemoryBytes) => {
      while (sharedQuickJsWorkers({ maxWasmMemoryBytes }).pools > 0) await sleep(20);
    },
  };
}

async function sharedWorkerEngine(dist, fixed) {
  const { createQuickJsEngine } = await import(`${dist}src/sandbox/engines/quickjs.js`);
  const { sharedPlacements } = await import(`${dist}src/sandbox/engines/quickjs-shared-placement.js`);
  return {
    create: (options = {}) => createQuickJsEngine({ ...options, workerMode: "shared", ...fixed }),
    settle: async () => {
      while (sharedPlacements().some((placement) => placement.counts.starting > 0)) await sleep(20);
    },
    // Ends the threads of engines with this wasm memory cap (placements keep their warm thread).
    retire: async (maxWasmMemoryBytes) => {
      await Promise.all(sharedPlacements().filter((placement) => placement.options.maxWasmMemoryBytes === maxWasmMemoryBytes).map((placement) => placement.dispose()));
    },
  };
}

async function inlineEngine(dist, fixed) {
  const { createQuickJsInlineEngine } = await import(`${dist}src/sandbox/engines/quickjs-inline.js`);
  return {
    create: (options = {}) =>
      createQuickJsInlineEngine({
        ...(options.maxWorkers === undefined ? {} : { maxInstances: options.maxWorkers }),
        ...(options.maxWasmMemoryBytes === undefined ? {} : { maxWasmMemoryBytes: options.maxWasmMemoryBytes }),
        ...fixed,
      }),
  };
}

let trivialRuns = 0;
/**
 * A trivial run with a text never seen before: the engines remember the transform of recent scripts
 * (guest/transform-cache.ts), and a benchmark that repeated one text would measure that cache, not a run.
 */
export const trivial = () => ({ code: `return 1; // run ${++trivialRuns}` });
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until this process is quiet (under `share` of one core over a `windowMs` pause, for at most
 * `maxMs`) and says how long that took (ms). V8 compiles a wasm module's hot functions on background
 * threads for seconds after they first run (on Node 20 about twice as long since the flag of
 * src/sandbox/engines/wasm-frame-size.ts: ~5 s against ~10 s of a fresh process at load 7-9), and a
 * steady-state row measured meanwhile read 2 ms one run and 7 ms another, by how far that got.
 */
export async function untilQuiet({ windowMs = 250, share = 0.05, maxMs = 30_000 } = {}) {
  const started = performance.now();
  for (;;) {
    const before = process.cpuUsage();
    await sleep(windowMs);
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < windowMs * share || performance.now() - started > maxMs) return performance.now() - started;
  }
}

export async function mustRun(engine, request) {
  const result = await engine.run(request);
  if (!result.ok) throw new Error(`benchmark run failed: ${result.error.code}: ${result.error.message}`);
  return result;
}

