import type { RunReport } from "../host/outcome.js";
import type { RunLimits } from "../types.js";
import type { CompiledWasmModule } from "./quickjs-protocol.js";
import type { SandboxSources } from "./quickjs-sandbox.js";
import type { WasmMemoryLayout } from "./quickjs-snapshot.js";

/**
 * Messages between the worker engine (main thread) and one of its shared worker threads, all on the
 * worker's own port (`worker.postMessage` / `parentPort`): the worker's event loop serves every run
 * placed on it, so a host call is an ordinary message and its reply another (but see the waited call below). Those
 * two, a call's live events, a run and most runs' ends travel as strings (quickjs-shared-wire.ts); the rest as objects.
 *
 * What cannot wait for the event loop lives in shared memory (`SHARED_CONTROL`): a stop raised
 * while another run's guest computes on the thread, the thread's sign of life, and the waited call.
 *
 * The waited call: a run alone on its thread, with no message on its way to the thread, posts its
 * synchronous host call as usual but then sleeps in Atomics.wait on `wait` (WAITING) instead of
 * unwinding its stack to the event loop; the main thread writes a reply that fits into `reply` and
 * moves WAITING -> REPLIED (the guest goes on at once, no unwind, rewind or event-loop turn), or,
 * before it posts anything else to the thread (a run, a stop, a reply by message), WAITING ->
 * RELEASED: the worker then suspends the guest as before and the reply comes as a message. The main
 * thread also releases a worker still asleep in the same call `waitMs` to twice that later, so a slow
 * tool does not hold the thread's event loop (its next sandbox's preparation, its timers) for the
 * length of the call. Only the worker leaves REPLIED or RELEASED (back to IDLE), only the main thread
 * leaves WAITING, so a reply goes one way or the other, never both.
 */

/** Int32 slots of a shared worker's control buffer. */
export const SHARED_CONTROL = Object.freeze({
  /** Bumped by the worker at every interrupt check of any run and as each run starts: the thread is alive, not stuck in a native call. */
  beat: 0,
  /** Bumped by the worker each time a guest has computed a whole time slice and yields: a CPU-bound guest is there. */
  slices: 1,
  /** The waited call's state: WAIT_IDLE, WAIT_WAITING, WAIT_REPLIED or WAIT_RELEASED (see above). */
  wait: 2,
  /** The run and host call that sleeps in WAITING (set by the worker before it enters WAITING). */
  waitRun: 3,
  waitCall: 4,
  /** The reply's length in UTF-16 code units, in `reply` (set before REPLIED). */
  replyLength: 5,
  /** Messages the main thread has posted to the worker: one the worker has not read yet rules out waiting. */
  posted: 6,
  /** First of `runSlots` stop words, one per run slot: STOP_WALL or STOP_CANCEL, 0 when none. */
  stops: 7,
  /** Most runs placed on one worker at once. */
  runSlots: 64,
  stopWall: 1,
  stopCancel: 2,
  waitIdle: 0,
  waitWaiting: 1,
  waitReplied: 2,
  waitReleased: 3,
  /** The longest reply (UTF-16 code units) that goes through shared memory; longer ones go as messages. */
  replyUnits: 16384,
  /**
   * A waited call still asleep after this (to twice this) is released to the message path: the
   * waited call saves a few µs an answer, which counts for calls answered in well under a
   * millisecond; past this, the thread's event loop matters more.
   */
  waitMs: 10,
});

export interface SharedWorkerBoot {
  readonly corePath: string;
  readonly variantPath: string;
  readonly emscriptenPath: string;
  readonly wasmModule: CompiledWasmModule;
  readonly memoryLayout: WasmMemoryLayout | undefined;
  readonly maxWasmMemoryBytes: number;
  /** Idle asyncify instances the worker keeps, each with its next sandbox ready. */
  readonly idleInstances: number;
  /** Drop an instance whose wasm memory grew beyond this after a run (wasm memory never shrinks). */
  readonly retireAboveBytes: number;
  readonly images: boolean;
  readonly control: SharedArrayBuffer;
  /** The waited call's reply, SHARED_CONTROL.replyUnits UTF-16 code units. */
  readonly reply: SharedArrayBuffer;
  readonly sources: SandboxSources;
  readonly piecesAhead: readonly string[];
}

/** The run as the worker needs it (the host modules stay on the main thread). */
export interface SharedRunPlan {
  readonly code: string;
  readonly filename: string;
  readonly prelude?: string;
  readonly manifestText: string;
  readonly limits: RunLimits;
  readonly stackBytes: number;
  readonly moveAfterCpuMs?: number;
}

/** To a worker: a string is a run (encodeSharedRun) or a call's reply or event (encodeSharedAnswer). */
export type ToSharedWorker = { readonly type: "stop"; readonly runId: number; readonly reason: "wall" | "cancel" } | string;

/** A host call as the main thread reads it (decodeSharedCall). */
export interface SharedCallMessage {
  readonly runId: number;
  readonly callId: number;
  readonly module: string;
  readonly fn: string;
  readonly argsText: string;
  readonly listen: boolean;
  /** The worker delivers this call's events live (an async call); otherwise they travel with the reply. */
  readonly live: boolean;
}

export interface SharedDoneMessage {
  readonly type: "done";
  readonly runId: number;
  readonly report: RunReport;
  /** The run's instance was dropped (a trap); the worker itself is fine. */
  readonly trapped: boolean;
}

/** From a worker: a string is a host call (encodeSharedCall) or a run's end (encodeSharedDone; other ends are objects). */
export type FromSharedWorker = { readonly type: "ready" } | { readonly type: "boot-failed"; readonly message: string } | SharedDoneMessage | string;
