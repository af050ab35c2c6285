import { createRequire } from "node:module";
import { guestBootstrapSource, guestPieces, PIECES_COMPILED_AHEAD } from "../guest/bootstrap-source.js";
import { logEntryBytes } from "../host/output-budget.js";
import { meterWasmHeap } from "./quickjs-heap.js";
import { instantiateAsyncify, loadInlineAssets } from "./quickjs-inline-adapter.js";
import { InlineInstancePool } from "./quickjs-inline-instances.js";
import { runAsyncify } from "./quickjs-inline-run.js";
import { prepareInlineSandbox, releaseInlineSandbox } from "./quickjs-inline-sandbox.js";
import type { CompiledWasmModule } from "./quickjs-protocol.js";
import { compileQuickJsPiece, type SandboxSources } from "./quickjs-sandbox.js";
import { SHARED_CONTROL } from "./quickjs-shared-protocol.js";
import { sharedQuickJsWorkerMain } from "./quickjs-shared-worker.js";
import { snapshotQuickJsSandbox, type WasmMemoryLayout } from "./quickjs-snapshot.js";

/** Everything a shared worker needs that is the same for every worker of the process. */
export interface SharedWorkerAssets {
  /** The asyncify build, compiled once (the in-thread engine's copy) and posted to every worker. */
  readonly wasmModule: CompiledWasmModule;
  readonly memoryLayout: WasmMemoryLayout | undefined;
  readonly corePath: string;
  readonly variantPath: string;
  readonly emscriptenPath: string;
  readonly workerSource: string;
  readonly sources: SandboxSources;
  readonly piecesAhead: readonly string[];
}

const VARIANT = "@jitl/quickjs-wasmfile-release-asyncify";

let assets: Promise<SharedWorkerAssets> | undefined;

/** Loads (once per process) what shared workers start with; a failed load is retried by the next engine. */
export function loadSharedWorkerAssets(): Promise<SharedWorkerAssets> {
  assets ??= build().catch((error: unknown) => {
    assets = undefined;
    throw error;
  });
  return assets;
}

async function build(): Promise<SharedWorkerAssets> {
  // The same checks and compiled module as the in-thread engine (quickjs-emscripten-core pinned to 0.32.x).
  const inline = await loadInlineAssets();
  const resolve = createRequire(import.meta.url).resolve;
  const parts = [
    `instantiate: (${instantiateAsyncify.toString()})`,
    `meterHeap: (${meterWasmHeap.toString()})`,
    `Pool: (${InlineInstancePool.toString()})`,
    `prepare: (${prepareInlineSandbox.toString()})`,
    `release: (${releaseInlineSandbox.toString()})`,
    `compilePiece: (${compileQuickJsPiece.toString()})`,
    `snapshot: (${snapshotQuickJsSandbox.toString()})`,
    `run: (${runAsyncify.toString()})`,
    `logEntryBytes: (${logEntryBytes.toString()})`,
    `control: ${JSON.stringify(SHARED_CONTROL)}`,
  ];
  return {
    wasmModule: inline.wasmModule,
    memoryLayout: inline.memoryLayout,
    corePath: resolve("quickjs-emscripten-core"),
    variantPath: resolve(VARIANT),
    // The CommonJS glue: the variant's own loader would import() the ES build (an ES loader per worker).
    emscriptenPath: resolve(`${VARIANT}/emscripten-module`),
    workerSource: `(${sharedQuickJsWorkerMain.toString()})(require, { ${parts.join(", ")} });`,
    sources: { bootstrap: guestBootstrapSource(), pieces: guestPieces() },
    piecesAhead: PIECES_COMPILED_AHEAD,
  };
}
