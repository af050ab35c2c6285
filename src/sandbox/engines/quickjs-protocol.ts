import type { MessagePort } from "node:worker_threads";
import type { EngineOutcome } from "../host/outcome.js";
import type { LogEntry, RunLimits } from "../types.js";
import type { SandboxSources } from "./quickjs-sandbox.js";

/**
 * Messages between the engine (main thread) and a QuickJS worker thread.
 *
 * Two channels: `worker.postMessage`/`parentPort` carries run requests and their results (the
 * worker is idle and listening when a run starts), and a dedicated MessagePort carries host calls
 * and replies. The worker never listens on that port: while a run is in progress it reads replies
 * synchronously (from the shared reply mailbox, see MAILBOX_LAYOUT, else with
 * `receiveMessageOnPort`), sleeping in `Atomics.wait` on a shared control word that the host bumps
 * after each reply. That is how a guest blocks on a host call without
 * unwinding its stack, and how a guest that never yields still sees cancellation.
 */

/** Int32 slots of the shared control buffer. */
export const CONTROL_LAYOUT = Object.freeze({
  /** Incremented by the host after posting on the call port; the worker waits on it. */
  wake: 0,
  /** Why the host wants the current run stopped: one of the STOP_* values. */
  stop: 1,
  /**
   * Runs the host has posted to this worker so far. A worker that has built its next sandbox
   * compiles more into it (bootstrap pieces) only while this equals the runs it has received: a
   * run that is waiting gets the sandbox as it is.
   */
  posted: 2,
  /**
   * How far the worker's next sandbox is: one of the READY_* values below, set by the worker (it
   * clears it when it takes a run). The pool gives a run the idle worker that is furthest along, so
   * runs back to back alternate between warm workers instead of waiting for one to rebuild.
   */
  ready: 3,
  /** 1 once the worker restores its sandboxes from an image (quickjs-snapshot.ts), set by the worker. */
  image: 4,
  none: 0,
  cancelled: 1,
  wall: 2,
  /** Building (or serving a run). */
  readyNot: 0,
  /** Runtime, context and bootstrap built; bootstrap pieces may still be compiling. */
  readyBuilt: 1,
  /** Built and its pieces compiled: the worker is idle. */
  readyIdle: 2,
  slots: 5,
});

export type ControlLayout = typeof CONTROL_LAYOUT;

/**
 * The reply mailbox: a SharedArrayBuffer per worker that carries one host -> worker message (a reply
 * or an event) without a MessagePort. The host writes the text (UTF-8) and the header, then sets
 * `full` and bumps the control word the worker waits on; the worker reads it and clears `full`.
 * The host uses the mailbox only when it is empty and every message it posted on the call port has
 * been taken (`taken` counts those), so a message on the port is always newer than the one in the
 * mailbox and the worker reads the mailbox first: the order of a call's events and reply holds.
 * A text longer than `dataBytes` goes by the port.
 */
export const MAILBOX_LAYOUT = Object.freeze({
  /** Int32 slots of the header. */
  full: 0,
  taken: 1,
  kind: 2,
  runId: 3,
  callId: 4,
  bytes: 5,
  reply: 0,
  event: 1,
  headerBytes: 32,
  dataBytes: 64 * 1024,
});

export type MailboxLayout = typeof MAILBOX_LAYOUT;

/**
 * Shared by the workers of one engine: how many may busy-wait for a host reply at once (see
 * executeQuickJsRun). More spinners than spare cores would take CPU from the thread that answers,
 * and with more runs in progress than that the cores are better left to the guests: nobody spins.
 */
export interface SpinBudget {
  /** Int32 slots: SPIN_SLOTS.spinning workers spin now, SPIN_SLOTS.running runs are in progress. */
  readonly counters: SharedArrayBuffer;
  readonly max: number;
}

export const SPIN_SLOTS = Object.freeze({ spinning: 0, running: 1, slots: 2 });

export function newSpinBudget(max: number): SpinBudget {
  return { counters: new SharedArrayBuffer(SPIN_SLOTS.slots * Int32Array.BYTES_PER_ELEMENT), max };
}

/** workerData for a new worker. */
export interface WorkerBoot {
  readonly corePath: string;
  readonly variantPath: string;
  /** The CommonJS build of the variant's Emscripten glue (see quickjs-assets.ts). */
  readonly emscriptenPath: string;
  readonly wasmModule: CompiledWasmModule;
  /** Hard cap of the worker's wasm memory: an allocation beyond it fails inside QuickJS (out of memory). */
  readonly maxWasmMemoryBytes: number;
  readonly control: SharedArrayBuffer;
  readonly layout: ControlLayout;
  /** See MAILBOX_LAYOUT. */
  readonly mailbox: SharedArrayBuffer;
  readonly mailboxLayout: MailboxLayout;
  readonly port: MessagePort;
  /** The guest bootstrap and its pieces (see SandboxSources). */
  readonly sources: SandboxSources;
  /** Pieces compiled into a sandbox built ahead while the worker is idle (PIECES_COMPILED_AHEAD). */
  readonly piecesAhead: readonly string[];
  readonly spin: SpinBudget;
  readonly spinSlots: typeof SPIN_SLOTS;
  /**
   * Where the wasm build keeps its state (see quickjs-snapshot.ts): with it the worker keeps an image
   * of a built sandbox and restores it for each run; without it (snapshots off, or a build whose
   * layout was not understood) it builds every sandbox.
   */
  readonly memoryLayout: { readonly dataEnd: number; readonly heapBase: number } | undefined;
}

export interface RunMessage {
  readonly type: "run";
  readonly runId: number;
  /** The wrapped script (an expression evaluating to the async main function). */
  readonly code: string;
  readonly filename: string;
  readonly prelude?: string;
  readonly manifestText: string;
  readonly limits: RunLimits;
  /** Epoch ms when the wall budget runs out. */
  readonly deadline: number;
  /** QuickJS stack limit, in bytes. */
  readonly stackBytes: number;
}

export interface HostCallMessage {
  readonly type: "call";
  readonly runId: number;
  readonly callId: number;
  readonly mode: "sync" | "async";
  readonly module: string;
  readonly fn: string;
  readonly argsText: string;
  /** The guest passed a listener (an `onProgress` callback): the host may send HostEventMessages for this call. */
  readonly listen: boolean;
}

export interface HostReplyMessage {
  readonly type: "reply";
  readonly runId: number;
  readonly callId: number;
  readonly text: string;
}

/**
 * One event of a call in flight (HostCallContext.notify), sent on the call port before the call's
 * reply (so the guest's listener sees every event of a call before the call returns).
 */
export interface HostEventMessage {
  readonly type: "event";
  readonly runId: number;
  readonly callId: number;
  readonly text: string;
}

/** What the host sends on the call port. */
export type HostPortMessage = HostReplyMessage | HostEventMessage;

export interface DoneMessage {
  readonly type: "done";
  readonly runId: number;
  readonly outcome: EngineOutcome;
  readonly logs: readonly LogEntry[];
  readonly logBytes: number;
  readonly droppedLogs: number;
  readonly cpuMs: number;
  readonly hostCalls: number;
  /** The worker must not serve another run: a trap, or a run stopped mid-flight with nothing to undo it. */
  readonly poisoned: boolean;
  /**
   * A trap or host exception unwound through QuickJS: more than its memory may be wrong (the wasm
   * stack pointer, a global no image restores), so even a worker with a sandbox image is replaced.
   */
  readonly trapped: boolean;
  /** Size of the worker's wasm linear memory after the run; it never shrinks. */
  readonly wasmMemoryBytes: number;
}

export type WorkerMessage = { readonly type: "ready" } | { readonly type: "boot-failed"; readonly message: string } | DoneMessage;

/**
 * A compiled WebAssembly.Module, passed to workers by structured clone. Opaque here because Node's
 * type definitions declare no WebAssembly namespace for the build (only DOM typings do).
 */
export type CompiledWasmModule = object & { readonly __compiledWasmModule?: never };
