import * as QuickJs from "quickjs-emscripten-core";
import { meterWasmHeap, type GrowableMemory } from "./quickjs-heap.js";
import { InlineEngineLoadError, type InlineAssets } from "./quickjs-inline-assets.js";
import { installYieldingInterrupts, type YieldingInterruptHandler } from "./quickjs-yield.js";

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

/**
 * A native function on the fast path: its first three arguments are read as strings, the fourth says
 * whether it is a function (a guest listener); it returns a string, a promise of one (the guest is
 * suspended until it settles), or `{ error }` (thrown in the guest as an Error).
 */
export type StringFunction = (args: readonly string[], hasListener: boolean) => string | { readonly error: string } | Promise<string | { readonly error: string }>;

interface RuntimeInternals {
  readonly rt: QuickJs.Lifetime<QuickJs.JSRuntimePointer>;
  readonly memory: { newMutablePointerArray(length: number): QuickJs.Lifetime<{ typedArray: Int32Array; ptr: number }> };
}

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
   */
  newStringFunction(context: QuickJs.QuickJSContext, name: string, impl: StringFunction): QuickJs.QuickJSHandle;
  /**
   * The runtime's interrupt handler (replacing runtime.setInterruptHandler). While one of this
   * instance's async entry points runs the guest with no host function on its stack, its
   * `mayYield()` answers true and it may answer with a promise: the guest is suspended until it settles.
   */
  setInterruptHandler(runtime: QuickJs.QuickJSRuntime, handler: YieldingInterruptHandler): void;
  /** A guest is suspended in a host function (or a time slice's yield) of this instance right now. */
  readonly suspended: boolean;
  /** Size of the instance's linear memory (it never shrinks). */
  wasmMemoryBytes(): number;
  /** The instance's linear memory (for its sandbox image). */
  readonly memory: { readonly buffer: ArrayBuffer };
  /** See HeapMeter.limitHeadroom (quickjs-heap.ts). */
  limitHeadroom(ceiling: number | undefined): void;
  /** See HeapMeter.overBudget (quickjs-heap.ts). */
  overBudget(): boolean;
}

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

  const newString = (ctx: QuickJs.JSContextPointer, text: string): QuickJs.JSValuePointer => {
    const bytes = emscripten.lengthBytesUTF8(text) + 1;
    const pointer = emscripten._malloc(bytes);
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

  const answer = (context: QuickJs.QuickJSContext, ctx: QuickJs.JSContextPointer, result: string | { readonly error: string }): QuickJs.JSValuePointer =>
    typeof result === "string" ? newString(ctx, result) : throwError(context, ctx, result.error);

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
  callbacks.handleAsyncify = (asyncify, fn) => {
    if (asyncify === undefined) return hosted(fn);
    return asyncify.handleSleep((done: (value: unknown) => void) => {
      const result = hosted(fn);
      if (!(result instanceof Promise)) return done(result);
      if (suspended) throw new Error("QuickJS: a host function suspended while another was suspended on the same instance");
      suspended = true;
      // Host functions of this engine resolve, never reject (a rejection would leave the stack suspended).
      void result.then((value: unknown) => {
        suspended = false;
        done(value);
      });
    });
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

    newStringFunction(context, name, impl) {
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

    wasmMemoryBytes: heap.bytes,
    memory: wasmMemory,
    limitHeadroom: heap.limitHeadroom,
    overBudget: heap.overBudget,
  };
}
