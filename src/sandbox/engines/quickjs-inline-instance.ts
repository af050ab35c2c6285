import type * as QuickJs from "quickjs-emscripten-core";
import type { YieldingInterruptHandler } from "./quickjs-yield.js";
import type { InterruptPace } from "./quickjs-heap.js";

// What one asyncify instance offers the engines (made by quickjs-inline-adapter.ts, the one file that
// reaches inside quickjs-emscripten-core).

/**
 * A native function on the fast path: its first three arguments are read as strings, the fourth says
 * whether it is a function (a guest listener); it returns a string, a promise of one (the guest is
 * suspended until it settles), or `{ error }` (thrown in the guest as an Error).
 */
export type StringFunction = (args: readonly string[], hasListener: boolean) => string | { readonly error: string } | Promise<string | { readonly error: string }>;

/** What a call returned or threw; the caller disposes the handle. */
export type InlineCallResult = { readonly value: QuickJs.QuickJSHandle; readonly error?: undefined } | { readonly error: QuickJs.QuickJSHandle; readonly value?: undefined };

/** One wasm instance of the asyncify build, with the async entry points the engine needs. */
export interface InlineInstance {
  /** A fresh runtime (own heap, job queue, atoms); the caller disposes it. */
  newRuntime(): QuickJs.QuickJSAsyncRuntime;
  /**
   * Runs every pending job; resolves once they have all run, however many times host functions
   * suspended the guest meanwhile. `error` is an exception that escaped a job (an interrupt).
   */
  executePendingJobs(runtime: QuickJs.QuickJSRuntime, context: QuickJs.QuickJSContext): Promise<{ readonly error?: QuickJs.QuickJSHandle }>;
  /** context.evalCode (global code, the library's default flags), allowed to suspend. */
  evalCode(context: QuickJs.QuickJSContext, code: string, filename: string): Promise<InlineCallResult>;
  /** context.callFunction, allowed to suspend. */
  callFunction(
    context: QuickJs.QuickJSContext,
    fn: QuickJs.QuickJSHandle,
    thisValue: QuickJs.QuickJSHandle,
    args: readonly QuickJs.QuickJSHandle[],
  ): Promise<InlineCallResult>;
  /**
   * Sets QuickJS's stack limit and sizes the buffer asyncify saves a suspended stack into. QuickJS
   * sets that buffer to the stack limit itself, which is too small: the buffer holds every wasm local
   * of every frame, several times what the frames take on QuickJS's own stack, so a host call made
   * a few hundred calls deep would abort the instance. Four times the limit leaves room at any depth
   * QuickJS allows (checked by a test that calls the host at the deepest frame).
   */
  setStackLimit(runtime: QuickJs.QuickJSRuntime, bytes: number): void;
  /**
   * A guest function backed by `impl` on a fast path: arguments and result cross as C strings, without
   * the library's per-call handles, scopes and generators (most of a host call's JS-side garbage).
   * `mayWait`: `impl` may answer with a promise; with no heap room to suspend the guest, it is then
   * not called and the guest gets an out-of-memory error.
   */
  newStringFunction(context: QuickJs.QuickJSContext, name: string, impl: StringFunction, mayWait?: boolean): QuickJs.QuickJSHandle;
  /**
   * The runtime's interrupt handler (replacing runtime.setInterruptHandler). While one of this
   * instance's async entry points runs the guest with no host function on its stack, its
   * `mayYield()` answers true and it may answer with a promise: the guest is suspended until it settles.
   */
  setInterruptHandler(runtime: QuickJs.QuickJSRuntime, handler: YieldingInterruptHandler): void;
  /** A guest is suspended in a host function (or a time slice's yield) of this instance right now. */
  readonly suspended: boolean;
  /** A host function's answer failed to reach the guest (a trap): the instance must not serve another run. */
  readonly faulted: boolean;
  /** Size of the instance's linear memory (it never shrinks). */
  wasmMemoryBytes(): number;
  /** The instance's linear memory (for its sandbox image). */
  readonly memory: { readonly buffer: ArrayBuffer };
  /** See HeapMeter.limitHeadroom (quickjs-heap.ts). */
  limitHeadroom(ceiling: number | undefined): void;
  /** See HeapMeter.overBudget (quickjs-heap.ts). */
  overBudget(): boolean;
  /** See HeapMeter.paceChecks (quickjs-heap.ts). */
  paceChecks(context: number): InterruptPace;
}
