import { createRequire } from "node:module";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** The synchronous QuickJS build every thread-mode worker runs (see quickjs-assets.ts). */
export const SYNC_VARIANT = "@jitl/quickjs-wasmfile-release-sync";

/** Where a worker loads QuickJS's core, a build variant and its Emscripten glue from. */
export function quickJsVariantPaths(variant: string): { corePath: string; variantPath: string; emscriptenPath: string } {
  const resolve = createRequire(import.meta.url).resolve;
  return {
    corePath: resolve("quickjs-emscripten-core"),
    variantPath: resolve(variant),
    // The variant imports its glue with import(), which would start an ES module loader in every
    // worker (several ms of each worker's start); the CommonJS build of the same glue avoids that.
    emscriptenPath: resolve(`${variant}/emscripten-module`),
  };
}

/** The options every QuickJS worker thread is started with, prespawned or not. */
export function quickJsWorkerOptions(stackSizeMb: number): WorkerOptions {
  return {
    eval: true,
    // The guest heap lives in wasm memory, outside V8's heaps; a small young generation keeps an
    // idle worker's resident size down (ten workers must fit the gateway's budget).
    resourceLimits: { stackSizeMb, maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 },
    // The guest has no console of its own; a stray write from the worker must not reach stdout,
    // which may carry MCP traffic. The worker silences its own writes (quickjs-worker.ts); these
    // streams are never read, since reading one would keep the process alive while the worker idles.
    stdout: true,
    stderr: true,
    // Node's default, relied on: a raw descriptor the worker opened (the preemption meter's schedstat file,
    // open while a run computes) is closed when the worker exits, also when it is terminated mid-run.
    trackUnmanagedFds: true,
  };
}

/**
 * What a prespawned worker runs until it is handed its program: it resolves and loads QuickJS's
 * CommonJS files (the same files quickJsVariantPaths names, cached for the program's own require; a
 * failure here only means the program loads them itself), then waits for one message holding the
 * program (a function expression taking require and the boot data) and the boot data, and calls it.
 */
const STUB = `const threads = require("node:worker_threads");
const from = require("node:module").createRequire(threads.workerData.resolveFrom);
for (const id of threads.workerData.preload) { try { require(from.resolve(id)); } catch {} }
threads.parentPort.once("message", (message) => { (0, eval)(message.program)(require, message.boot); });`;

interface Prespawned {
  readonly worker: Worker;
  readonly stackSizeMb: number;
  exited: boolean;
  readonly ignoreError: () => void;
}

let waiting: Prespawned | undefined;

/**
 * Starts a QuickJS worker thread before anything else of the CLI has loaded (`mcpvm run`, from
 * bin/mcpvm.js: src/cli/prespawn.ts). Node's own bootstrap of a worker thread is most of a worker's
 * start; it then runs on another core while the main thread loads the CLI, the engine and compiles
 * the wasm, instead of after them. The first QuickJsThread.spawn with the same stack size takes this
 * thread and hands it its program and boot data (takePrespawnedWorker). Until taken it does not keep
 * the process alive, and a run that never takes it (another engine, a usage error) loses only its start.
 */
export function prespawnQuickJsWorker(stackSizeMb: number, variant: string = SYNC_VARIANT): void {
  if (waiting !== undefined) return;
  // Resolved in the worker, from where quickJsVariantPaths resolves them: not this thread's time.
  const preload = ["quickjs-emscripten-core", variant, `${variant}/emscripten-module`];
  const worker = new Worker(STUB, { ...quickJsWorkerOptions(stackSizeMb), workerData: { resolveFrom: import.meta.url, preload } });
  worker.unref();
  // A failure before it is taken only means it is not used; an unheard 'error' would end the process.
  const ignoreError = (): void => undefined;
  worker.on("error", ignoreError);
  const entry: Prespawned = { worker, stackSizeMb, exited: false, ignoreError };
  worker.once("exit", () => {
    entry.exited = true;
  });
  waiting = entry;
}

/** The prespawned worker, if one is still starting or waiting with this stack size; each is taken once. */
export function takePrespawnedWorker(stackSizeMb: number): Worker | undefined {
  const entry = waiting;
  if (entry === undefined || entry.exited || entry.stackSizeMb !== stackSizeMb) return undefined;
  waiting = undefined;
  entry.worker.off("error", entry.ignoreError);
  return entry.worker;
}
