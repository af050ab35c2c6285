import type { CompiledWasmModule } from "./quickjs-protocol.js";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { quickJsVariantPaths, SYNC_VARIANT } from "./quickjs-prespawn.js";
import { guestBootstrapSource, guestPieces, PIECES_COMPILED_AHEAD } from "../guest/bootstrap-source.js";
import { executeQuickJsRun } from "./quickjs-execute.js";
import { meterWasmHeap } from "./quickjs-heap.js";
import { compileQuickJsPiece, prepareQuickJsSandbox, releaseQuickJsSandbox, type SandboxSources } from "./quickjs-sandbox.js";
import { snapshotQuickJsSandbox, wasmMemoryLayout, type WasmMemoryLayout } from "./quickjs-snapshot.js";
import { keepOptimizedWasmFramesSmall } from "./wasm-frame-size.js";
import { quickJsWorkerMain } from "./quickjs-worker.js";
import { createPreemptionMeter } from "./preemption-meter.js";
import { traceStartup } from "../../util/startup-trace.js";

/** Everything a QuickJS worker needs that is the same for every worker of the process. */
export interface QuickJsAssets {
  /** Compiled once and shared: workers instantiate it without recompiling. */
  readonly wasmModule: CompiledWasmModule;
  readonly corePath: string;
  readonly variantPath: string;
  readonly emscriptenPath: string;
  readonly workerSource: string;
  /**
   * The same program as a function expression of (require, boot data), for a worker started before
   * the assets existed (quickjs-prespawn.ts), which is handed it by message; thread mode only.
   */
  readonly workerProgram?: string;
  readonly sources: SandboxSources;
  readonly piecesAhead: readonly string[];
  /** Where the build keeps its state, if understood (see quickjs-snapshot.ts). */
  readonly memoryLayout: WasmMemoryLayout | undefined;
}

let assets: Promise<QuickJsAssets> | undefined;

/** Loads (once per process) the wasm module and the sources every worker is started with. */
export function loadQuickJsAssets(): Promise<QuickJsAssets> {
  assets ??= compileAssets().catch((error: unknown) => {
    // A failed load (e.g. a missing package) is retried by the next engine rather than cached.
    assets = undefined;
    throw error;
  });
  return assets;
}

async function compileAssets(): Promise<QuickJsAssets> {
  const resolve = createRequire(import.meta.url).resolve;
  // The synchronous build: host calls block the worker thread (Atomics.wait), so asyncify's
  // stack unwinding is not needed, and without it QuickJS is half the size and runs faster.
  const wasmPath = resolve(`${SYNC_VARIANT}/wasm`);
  const wasmBytes = await readFile(wasmPath);
  keepOptimizedWasmFramesSmall();
  const wasmModule = await wasm().compile(wasmBytes);
  traceStartup("assets: wasm compiled");
  const parts = [
    `prepare: (${prepareQuickJsSandbox.toString()})`,
    `execute: (${executeQuickJsRun.toString()})`,
    `release: (${releaseQuickJsSandbox.toString()})`,
    `compilePiece: (${compileQuickJsPiece.toString()})`,
    `meterHeap: (${meterWasmHeap.toString()})`,
    `snapshot: (${snapshotQuickJsSandbox.toString()})`,
    `preemption: (${createPreemptionMeter.toString()})`,
  ];
  const workerProgram = `(require, boot) => (${quickJsWorkerMain.toString()})(require, { ${parts.join(", ")} }, boot)`;
  return {
    wasmModule,
    ...quickJsVariantPaths(SYNC_VARIANT),
    // An eval worker runs as CommonJS, so `require` is in scope there and handed to the program.
    workerSource: `(${workerProgram})(require, require("node:worker_threads").workerData);`,
    workerProgram,
    sources: { bootstrap: guestBootstrapSource(), pieces: guestPieces() },
    piecesAhead: PIECES_COMPILED_AHEAD,
    memoryLayout: wasmMemoryLayout(wasmBytes),
  };
}

/** The global WebAssembly object; Node's type definitions declare its types but not the value. */
function wasm(): { compile(bytes: Uint8Array): Promise<CompiledWasmModule> } {
  return (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasmModule> } }).WebAssembly;
}
