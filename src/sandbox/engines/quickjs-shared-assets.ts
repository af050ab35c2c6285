import { guestBootstrapSource, guestPieces, PIECES_COMPILED_AHEAD } from "../guest/bootstrap-source.js";
import { logEntryBytes } from "../host/output-budget.js";
import type { QuickJsAssets } from "./quickjs-assets.js";
import { quickJsVariantPaths } from "./quickjs-prespawn.js";
import { meterWasmHeap } from "./quickjs-heap.js";
import { instantiateAsyncify } from "./quickjs-inline-adapter.js";
import { loadInlineAssets } from "./quickjs-inline-assets.js";
import { InlineInstancePool } from "./quickjs-inline-instances.js";
import { runAsyncify } from "./quickjs-inline-run.js";
import { createPreemptionMeter } from "./preemption-meter.js";
import { prepareInlineSandbox, releaseInlineSandbox } from "./quickjs-inline-sandbox.js";
import { compileQuickJsPiece } from "./quickjs-sandbox.js";
import { SHARED_CONTROL } from "./quickjs-shared-protocol.js";
import { sharedQuickJsWorkerMain } from "./quickjs-shared-worker.js";
import { decodeSharedAnswer, decodeSharedRun, encodeSharedCall, encodeSharedDone } from "./quickjs-shared-wire.js";
import { snapshotQuickJsSandbox } from "./quickjs-snapshot.js";
import { DEFAULT_SLICE_MS, installYieldingInterrupts, timeSlices } from "./quickjs-yield.js";

/** Everything a shared worker needs that is the same for every worker of the process: the asyncify build (the in-thread engine's compiled copy) in place of the sync one. */
export type SharedWorkerAssets = QuickJsAssets;

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
  const parts = [
    `instantiate: (${instantiateAsyncify.toString()})`,
    `meterHeap: (${meterWasmHeap.toString()})`,
    `Pool: (${InlineInstancePool.toString()})`,
    `prepare: (${prepareInlineSandbox.toString()})`,
    `release: (${releaseInlineSandbox.toString()})`,
    `compilePiece: (${compileQuickJsPiece.toString()})`,
    `snapshot: (${snapshotQuickJsSandbox.toString()})`,
    `run: (${runAsyncify.toString()})`,
    `preemption: (${createPreemptionMeter.toString()})`,
    `logEntryBytes: (${logEntryBytes.toString()})`,
    `installYielding: (${installYieldingInterrupts.toString()})`,
    `timeSlices: (${timeSlices.toString()})`,
    `sliceMs: ${DEFAULT_SLICE_MS}`,
    `control: ${JSON.stringify(SHARED_CONTROL)}`,
    `encodeCall: (${encodeSharedCall.toString()})`,
    `decodeAnswer: (${decodeSharedAnswer.toString()})`,
    `decodeRun: (${decodeSharedRun.toString()})`,
    `encodeDone: (${encodeSharedDone.toString()})`,
  ];
  return {
    wasmModule: inline.wasmModule,
    memoryLayout: inline.memoryLayout,
    ...quickJsVariantPaths(VARIANT),
    workerSource: `(${sharedQuickJsWorkerMain.toString()})(require, { ${parts.join(", ")} });`,
    sources: { bootstrap: guestBootstrapSource(), pieces: guestPieces() },
    piecesAhead: PIECES_COMPILED_AHEAD,
  };
}
