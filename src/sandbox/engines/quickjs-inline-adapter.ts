import * as QuickJs from "quickjs-emscripten-core";
import { meterWasmHeap, type GrowableMemory } from "./quickjs-heap.js";
import { InlineEngineLoadError, type InlineAssets } from "./quickjs-inline-assets.js";
import type { InlineInstance, StringFunction, InlineCallResult } from "./quickjs-inline-instance.js";
import { installYieldingInterrupts } from "./quickjs-yield.js";

/**
 * The one place that reaches inside quickjs-emscripten-core (pinned to 0.32.x, checked at load) to
 * run QuickJS's asyncify build on the caller's thread. Why each reach is needed:
 *
 * - An async "execute pending jobs" and "call function". The library's `_MaybeAsync` FFI entries
 *   for these are the raw wasm exports (Emscripten's cwrap returns the export itself when every
 *   argument is a number), so a host function that suspends inside a promise job unwinds the stack
 *   and the caller never learns it: the job loop returns garbage. Going through `cwrap(…, {async: true})`
 *   (Emscripten's ccall) returns a Promise that settles when the suspended call really ends.
 * - `handleAsyncify` of the module's callbacks is replaced: the library's version builds an Error
 *   (a stack trace) on every suspension, which was 40 % of a host call's CPU, and on a rejected
 *   host promise it logs and leaves the stack suspended forever. Ours allocates nothing and our
 *   host functions never reject.
 * - A runtime is built in the synchronous module's order (free the runtime, then forget its
 *   callbacks): the asyncify module's newRuntime forgets them first, so a host function freed by
 *   the runtime's final GC throws "runtime not found".
 *
 * - The module callbacks' interrupt check is routed to handlers that may suspend the guest (time
 *   slices, see quickjs-yield.ts); the library's runtime handler can only answer yes or no.
 *
 * Asyncify keeps one suspended stack per wasm instance, so one instance serves one run at a time
 * (see quickjs-inline-instances.ts).
 */

/** What this file reaches on the library's objects (protected members in its typings). */
interface ModuleInternals {
  readonly ffi: QuickJs.QuickJSAsyncFFI;
  readonly module: QuickJs.QuickJSAsyncEmscriptenModule & {
    readonly Asyncify?: unknown;
    readonly callbacks: { shouldInterrupt: (asyncify: unknown, rt: number) => unknown };
    cwrap(name: string, returns: string, args: readonly string[], options: { async: true }): (...args: Array<number | string>) => Promise<number>;
  };
  readonly callbacks: {
    deleteRuntime(rt: QuickJs.JSRuntimePointer): void;
    setContextCallbacks(ctx: QuickJs.JSContextPointer, callbacks: ContextCallbacks): void;
    handleAsyncify: (asyncify: QuickJs.Asyncify | undefined, fn: () => unknown) => unknown;
  };
}

type CallFunctionCallback = (ctx: QuickJs.JSContextPointer, thisPtr: number, argc: number, argv: number, fnId: number) => unknown;

interface ContextCallbacks {
  readonly callFunction: CallFunctionCallback;
}

interface RuntimeInternals {
  readonly rt: QuickJs.Lifetime<QuickJs.JSRuntimePointer>;
  readonly memory: { newMutablePointerArray(length: number): QuickJs.Lifetime<{ typedArray: Int32Array; ptr: number }> };
}

export type { InlineCallResult, InlineInstance, StringFunction } from "./quickjs-inline-instance.js";

export async function newInlineInstance(shared: InlineAssets, maxWasmMemoryBytes: number): Promise<InlineInstance> {
  try {
    return await instantiateAsyncify({ core: QuickJs, meterHeap: meterWasmHeap, installYielding: installYieldingInterrupts }, shared, maxWasmMemoryBytes);
  } catch (error) {
    if (error instanceof Error && error.name === "InlineEngineLoadError") throw new InlineEngineLoadError(error.message);
    throw error;
  }
}

/** What instantiateAsyncify needs at run time, passed in because the shared worker loads it by source text. */
export interface AsyncifyParts {
  readonly core: typeof QuickJs;
  readonly meterHeap: typeof meterWasmHeap;
  readonly installYielding: typeof installYieldingInterrupts;
}

/**
 * One asyncify instance. Used on the caller's thread (quickjs-inline) and inside the worker engine's
 * threads (quickjs-shared-worker.ts), where it is started from its source text: it must not reference
 * anything outside its own body but its arguments (imports above are types only for it).
 */
export async function instantiateAsyncify(parts: AsyncifyParts, shared: InlineAssets, maxWasmMemoryBytes: number): Promise<InlineInstance> {
  const core = parts.core;
  const PAGE = 65536;
  /** The build's own minimum (its INITIAL_MEMORY); an imported memory may not be smaller. Untouched pages cost no RSS. */
  const INITIAL_PAGES = 256;
  const ASYNCIFY_BUFFER_FACTOR = 4;
  const silent = (): void => undefined;
  /** QuickJS's `===` (quickjs-emscripten's IsEqualOp.IsStrictlyEqual). */
  const STRICTLY_EQUAL = 0 as QuickJs.IsEqualOp;
  const loadError = (message: string): Error => Object.assign(new Error(message), { name: "InlineEngineLoadError" });
  const wasmMemory = new (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => GrowableMemory } }).WebAssembly.Memory({
    initial: INITIAL_PAGES,
    maximum: Math.max(INITIAL_PAGES * 2, Math.floor(maxWasmMemoryBytes / PAGE)),
  });
  // The meter instantiates the compiled module itself (so no `wasmModule` option, which would replace its hook).
  const heap = parts.meterHeap(wasmMemory, shared.wasmModule);
  type VariantOptions = Parameters<typeof QuickJs.newVariant>[1];
  const module = await core.newQuickJSAsyncWASMModuleFromVariant(
    // Emscripten prints an instance's abort ("Aborted(RuntimeError: …)") itself; the run reports it.
    core.newVariant(shared.variant, { wasmMemory, emscriptenModule: { print: silent, printErr: silent, instantiateWasm: heap.instantiateWasm } } as VariantOptions),
  );
  const internals = module as unknown as ModuleInternals;
  for (const name of ["QTS_NewRuntime", "QTS_FreeRuntime", "QTS_FreeValuePointerRuntime", "QTS_ResolveException", "QTS_FreeValuePointer"] as const) {
    if (typeof internals.ffi[name] !== "function") throw loadError(`quickjs-emscripten-core has no ${name}; use sandbox.engine "quickjs"`);
  }
  if (typeof internals.callbacks?.handleAsyncify !== "function" || typeof internals.module.cwrap !== "function") {
    throw loadError('quickjs-emscripten-core changed its asyncify callbacks; use sandbox.engine "quickjs"');
  }
  const { ffi, callbacks } = internals;
  const executeJobs = internals.module.cwrap("QTS_ExecutePendingJob", "number", ["number", "number", "number"], { async: true });
  const call = internals.module.cwrap("QTS_Call", "number", ["number", "number", "number", "number", "number"], { async: true });
  const evaluate = internals.module.cwrap("QTS_Eval", "number", ["number", "number", "number", "string", "number", "number"], { async: true });

  const fastPaths = new WeakSet<QuickJs.QuickJSContext>();
  const fastImpls = new WeakMap<object, StringFunction>();
  /** Fast functions that may answer with a promise (the guest then waits, suspended). */
  const mayWait = new WeakSet<StringFunction>();
  const contextPointer = (context: QuickJs.QuickJSContext): QuickJs.JSContextPointer =>
    (context as unknown as { ctx: QuickJs.Lifetime<QuickJs.JSContextPointer> }).ctx.value;
  const emscripten = internals.module;
  const undefinedValue = ffi.QTS_GetUndefined();

  /** Routes calls of this context's fast functions past the library (every other call goes to it). */
  const installFastPath = (context: QuickJs.QuickJSContext): void => {
    if (fastPaths.has(context)) return;
    fastPaths.add(context);
    const original = (context as unknown as { cToHostCallbacks: ContextCallbacks }).cToHostCallbacks;
    const hostRefs = (context.runtime as unknown as { hostRefs: { get(id: number): object } }).hostRefs;
    callbacks.setContextCallbacks(contextPointer(context), {
      callFunction: (ctx, thisPtr, argc, argv, fnId) => {
        let impl: StringFunction | undefined;
        try {
          impl = fastImpls.get(hostRefs.get(fnId));
        } catch {
          impl = undefined;
        }
        if (impl === undefined) return original.callFunction(ctx, thisPtr, argc, argv, fnId);
        return callFast(context, ctx, impl, argc, argv);
      },
    });
  };

  /** 0 when the heap has no room (unchecked, the text would be written from address 0). */
  const newString = (ctx: QuickJs.JSContextPointer, text: string): QuickJs.JSValuePointer | 0 => {
    const bytes = emscripten.lengthBytesUTF8(text) + 1;
    const pointer = emscripten._malloc(bytes);
    if (pointer === 0) return 0;
    try {
      emscripten.stringToUTF8(text, pointer as QuickJs.OwnedHeapCharPointer, bytes);
      return ffi.QTS_NewString(ctx, pointer as QuickJs.BorrowedHeapCharPointer);
    } finally {
      emscripten._free(pointer);
    }
  };

  const throwError = (context: QuickJs.QuickJSContext, ctx: QuickJs.JSContextPointer, message: string): QuickJs.JSValuePointer => {
    const error = context.newError(message);
    try {
      return ffi.QTS_Throw(ctx, error.value);
    } finally {
      error.dispose();
    }
  };

  const answer = (context: QuickJs.QuickJSContext, ctx: QuickJs.JSContextPointer, result: string | { readonly error: string }): QuickJs.JSValuePointer => {
    if (typeof result !== "string") return throwError(context, ctx, result.error);
    return newString(ctx, result) || throwError(context, ctx, "out of memory (no room left in the heap for the host's answer)");
  };

  const callFast = (context: QuickJs.QuickJSContext, ctx: QuickJs.JSContextPointer, impl: StringFunction, argc: number, argv: number): unknown => {
    const args: string[] = [];
    let hasListener = false;
    for (let i = 0; i < argc; i++) {
      const value = ffi.QTS_ArgvGetJSValueConstPointer(argv as unknown as QuickJs.JSValuePointer, i);
      if (i < 3) {
        const text = ffi.QTS_GetString(ctx, value);
        args.push(emscripten.UTF8ToString(text));
        ffi.QTS_FreeCString(ctx, text);
      } else if (i === 3 && ffi.QTS_IsEqual(ctx, value, undefinedValue, STRICTLY_EQUAL) === 0) {
        // Most calls pass no listener (undefined): that identity test allocates nothing, where
        // QTS_Typeof returns a C string to decode and free.
        const type = ffi.QTS_Typeof(ctx, value);
        hasListener = emscripten.UTF8ToString(type) === "function";
        emscripten._free(type);
      }
    }
    // Below an async entry point it may suspend, which mallocs the saved stack's buffer unchecked
    // (quickjs-yield.ts): with no room for it, the guest gets an out-of-memory error instead of the call.
    if (entered > 0 && mayWait.has(impl) && interrupts?.saveBufferFits() === false) return throwError(context, ctx, "out of memory (no room left in the heap to wait for a host call)");
    let result: ReturnType<StringFunction>;
    try {
      result = impl(args, hasListener);
    } catch (error) {
      return throwError(context, ctx, String(error));
    }
    if (result instanceof Promise) return result.then((settled) => answer(context, ctx, settled));
    return answer(context, ctx, result);
  };

  let suspended = false;
  let faulted = false;
  /** Async entry points in progress: only below one of them may the wasm stack unwind. */
  let entered = 0;
  /** Host functions running now (JS frames on the wasm stack: nothing below them may unwind). */
  let hostFrames = 0;
  const entry = async <T>(start: () => Promise<T>): Promise<T> => {
    entered++;
    try {
      return await start();
    } finally {
      entered--;
    }
  };
  const hosted = (fn: () => unknown): unknown => {
    hostFrames++;
    try {
      return fn();
    } finally {
      hostFrames--;
    }
  };
  /**
   * The promise of the async entry point a suspension belongs to (Emscripten's Asyncify.asyncPromiseHandlers,
   * minified in this build). Rejected by hand when resuming throws: Emscripten then rethrows and leaves it
   * pending, and the run awaiting it would wait forever.
   */
  const strandedEntry = (error: unknown): void => {
    const state = internals.module.Asyncify as { Wa?: { reject(error: unknown): void } | null } | undefined;
    const waiting = state?.Wa;
    if (state === undefined || waiting === undefined || waiting === null) return;
    state.Wa = null;
    waiting.reject(error);
  };
  callbacks.handleAsyncify = (asyncify, fn) => {
    if (asyncify === undefined) return hosted(fn);
    let abandoned = false;
    try {
      return asyncify.handleSleep((done: (value: unknown) => void) => {
        const result = hosted(fn);
        if (!(result instanceof Promise)) return done(result);
        if (suspended) throw new Error("QuickJS: a host function suspended while another was suspended on the same instance");
        suspended = true;
        const resume = (value: unknown): void => {
          suspended = false;
          if (abandoned) return;
          try {
            done(value);
          } catch (error) {
            // Rewinding trapped (or ran out of this thread's stack): the instance is not reused and the
            // run ends with the error instead of an unhandled rejection and a run that never settles.
            faulted = true;
            strandedEntry(error);
          }
        };
        // Host functions of this engine never reject, but converting an answer into the guest's heap may
        // trap: the guest still resumes (with undefined, a null answer) and the instance is not reused.
        void result.then(resume, () => {
          faulted = true;
          resume(0);
        });
      });
    } catch (error) {
      // Emscripten began the suspension, then failed inside it (this thread's own stack ran out in a deep
      // guest: V8 throws at any wasm call): nothing was saved, so the pending resume must never rewind.
      abandoned = true;
      faulted = true;
      throw error;
    }
  };

  const interrupts = parts.installYielding({
    module: internals.module,
    handleAsyncify: (asyncify, fn) => callbacks.handleAsyncify(asyncify as QuickJs.Asyncify | undefined, fn),
    canSuspend: () => entered > 0 && hostFrames === 0 && !suspended,
  });

  /** A value or the exception of an entry point's result pointer, as the library's calls report them. */
  const settled = (context: QuickJs.QuickJSContext, ctx: QuickJs.JSContextPointer, resultPointer: QuickJs.JSValuePointer): InlineCallResult => {
    const memory = context.getMemory((context.runtime as unknown as RuntimeInternals).rt.value);
    const errorPointer = ffi.QTS_ResolveException(ctx, resultPointer);
    if (errorPointer !== 0) {
      ffi.QTS_FreeValuePointer(ctx, resultPointer);
      return { error: memory.heapValueHandle(errorPointer) };
    }
    return { value: memory.heapValueHandle(resultPointer) };
  };

  return {
    newRuntime() {
      const rt = new core.Lifetime(ffi.QTS_NewRuntime(), undefined, (pointer: QuickJs.JSRuntimePointer) => {
        interrupts?.delete(pointer);
        ffi.QTS_FreeRuntime(pointer);
        callbacks.deleteRuntime(pointer);
      });
      const args = { module: internals.module, ffi, rt, callbacks } as unknown as ConstructorParameters<typeof QuickJs.QuickJSAsyncRuntime>[0];
      return new core.QuickJSAsyncRuntime(args);
    },

    async executePendingJobs(runtime, context) {
      const inside = runtime as unknown as RuntimeInternals;
      const out = inside.memory.newMutablePointerArray(1);
      try {
        const valuePointer = (await entry(() => executeJobs(inside.rt.value, -1, out.value.ptr))) as QuickJs.JSValuePointer;
        const contextPointer = out.value.typedArray[0] ?? 0;
        if (contextPointer === 0) {
          ffi.QTS_FreeValuePointerRuntime(inside.rt.value, valuePointer);
          return {};
        }
        const value = context.getMemory(inside.rt.value).heapValueHandle(valuePointer);
        if (context.typeof(value) === "number") {
          value.dispose();
          return {};
        }
        return { error: value };
      } finally {
        out.dispose();
      }
    },

    async evalCode(context, code, filename) {
      const ctx = contextPointer(context);
      const bytes = emscripten.lengthBytesUTF8(code) + 1;
      const text = emscripten._malloc(bytes);
      try {
        emscripten.stringToUTF8(code, text as QuickJs.OwnedHeapCharPointer, bytes);
        // Detect module syntax (1) and no flags (0), as context.evalCode does without options.
        return settled(context, ctx, (await entry(() => evaluate(ctx, text, bytes - 1, filename, 1, 0))) as QuickJs.JSValuePointer);
      } finally {
        emscripten._free(text);
      }
    },

    async callFunction(context, fn, thisValue, args) {
      const ctx = contextPointer(context);
      const argv = internals.module._malloc(Math.max(1, args.length) * 4);
      try {
        new Int32Array(internals.module.HEAPU8.buffer, argv, args.length).set(args.map((handle) => handle.value as number));
        return settled(context, ctx, (await entry(() => call(ctx, fn.value as number, thisValue.value as number, args.length, argv))) as QuickJs.JSValuePointer);
      } finally {
        internals.module._free(argv);
      }
    },

    setInterruptHandler(runtime, handler) {
      // Enables QuickJS's checks; this verdict is the one used when the yielding route is unavailable.
      runtime.setInterruptHandler(() => handler(() => false) === true);
      interrupts?.set((runtime as unknown as RuntimeInternals).rt.value, handler);
    },

    newStringFunction(context, name, impl, waits = false) {
      if (waits) mayWait.add(impl);
      installFastPath(context);
      // Never called through the library: the fast path finds `impl` by this function object.
      const marker = (): undefined => undefined;
      fastImpls.set(marker, impl);
      return context.newFunction(name, marker);
    },

    setStackLimit(runtime, bytes) {
      runtime.setMaxStackSize(bytes);
      // Emscripten's Asyncify.StackSize, under its minified name in this build (0.32.x).
      const asyncify = internals.module.Asyncify as unknown as { Va?: unknown } | undefined;
      if (asyncify !== undefined && typeof asyncify.Va === "number") asyncify.Va = bytes * ASYNCIFY_BUFFER_FACTOR;
    },

    get suspended() {
      return suspended;
    },

    get faulted() {
      return faulted;
    },

    wasmMemoryBytes: heap.bytes,
    memory: wasmMemory,
    limitHeadroom: heap.limitHeadroom,
    overBudget: heap.overBudget,
    paceChecks: heap.paceChecks,
  };
}
