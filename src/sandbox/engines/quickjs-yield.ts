/**
 * Cooperative time slices for QuickJS's asyncify build (the in-thread engine, and the worker engine's
 * shared threads). While guest code computes, its thread runs nothing else; QuickJS polls its
 * interrupt handler meanwhile, and in the asyncify build the handler may suspend the guest's wasm
 * stack exactly as a host call does (checked by tests/sandbox/quickjs-yield.test.ts, which compares a
 * guest's results computed with a suspension at every check against the same code run by Node). So a
 * guest that has computed for a slice is suspended until the event loop has run once: signals,
 * timers, I/O, other runs' host-call replies and cancels are served, then the guest resumes.
 *
 * Both functions here are started from their source text inside the shared worker threads
 * (quickjs-shared-assets.ts): they reference nothing outside their bodies but their arguments.
 */

/**
 * A runtime's interrupt handler. `mayYield()` says whether the guest can be suspended at this check
 * (it cannot while a host function is on the wasm stack, outside an async entry point, or when the
 * heap has no room for the saved stack); it costs a malloc and a free, so a handler asks it only once
 * it wants to yield (a slice is due). A promise, returned only after `mayYield()` said true, suspends
 * the guest until it settles, and its value is the verdict then (true stops the guest).
 */
export type YieldingInterruptHandler = (mayYield: () => boolean) => boolean | Promise<boolean>;

/** What installYieldingInterrupts replaces on one instance of the asyncify build. */
export interface YieldTarget {
  /** The Emscripten module: its glue reads `callbacks.shouldInterrupt` at every check. */
  readonly module: {
    readonly callbacks: { shouldInterrupt: (asyncify: unknown, rt: number) => unknown };
    readonly Asyncify?: unknown;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
  };
  /** The module callbacks' handleAsyncify (the adapter's own, see quickjs-inline-adapter.ts). */
  readonly handleAsyncify: (asyncify: { handleSleep: unknown } | undefined, fn: () => unknown) => unknown;
  /** The wasm stack can be unwound right now (an async entry point called it, with no host frame in between). */
  readonly canSuspend: () => boolean;
}

/** Interrupt handlers of an instance's runtimes, by runtime pointer. */
export interface YieldingInterrupts {
  set(rt: number, handler: YieldingInterruptHandler): void;
  delete(rt: number): void;
  /**
   * Whether the heap has room for the buffer a suspension saves the stack into (see below). A host
   * function that may suspend asks first: its suspension mallocs that buffer just as unchecked.
   */
  saveBufferFits(): boolean;
}

/**
 * Routes the instance's interrupt checks to handlers that may suspend the guest. The build's
 * interrupt import hands the library no asyncify object (the library's own handler only answers
 * yes or no), so the suspension goes through Emscripten's Asyncify.handleSleep, under its minified
 * name in this build (quickjs-emscripten-core pinned to 0.32.x). Undefined when that is not found:
 * the instance then interrupts without yielding, as before.
 */
export function installYieldingInterrupts(target: YieldTarget): YieldingInterrupts | undefined {
  /** Emscripten's Asyncify object, minified: handleSleep, StackSize, and `state` (2: rewinding). */
  const asyncify = target.module.Asyncify as { readonly Ta?: unknown; readonly Va?: unknown; readonly state?: unknown } | undefined;
  if (asyncify === undefined || typeof asyncify.Ta !== "function") return undefined;
  const sleeper = { handleSleep: asyncify.Ta };
  const REWINDING = 2;
  const module = target.module;
  /**
   * Asyncify mallocs the buffer it saves a suspended stack into (StackSize and a 12-byte header) at
   * each suspension and does not check the result: in a heap at its run's ceiling (quickjs-heap.ts)
   * the malloc fails and the stack is written at address 0. Tried first here and freed at once, so
   * the suspension's own malloc gets that chunk back. Never while a stack is being rewound (no wasm
   * may run then): a rewinding check only collects its saved verdict.
   */
  const saveBufferFits = (): boolean => {
    if (typeof asyncify.Va !== "number") return false;
    const probe = module._malloc(asyncify.Va + 12);
    if (probe === 0) return false;
    module._free(probe);
    return true;
  };
  const handlers = new Map<number, YieldingInterruptHandler>();
  const callbacks = target.module.callbacks;
  const library = callbacks.shouldInterrupt;
  const verdict = (value: boolean): number => (value ? 1 : 0);
  const mayYield = (): boolean => target.canSuspend() && saveBufferFits();
  const collect = (): never => {
    throw new Error("QuickJS: an interrupt check was resumed without the suspension it saved");
  };
  callbacks.shouldInterrupt = (unused, rt) => {
    // When the guest resumes, the build calls this import again to collect the verdict: handleSleep
    // then returns the one it saved without calling the function it is given.
    if (asyncify.state === REWINDING) return target.handleAsyncify(sleeper, collect);
    const handler = handlers.get(rt);
    if (handler === undefined) return library(unused, rt);
    // Most checks decide without yielding: they go past asyncify and the save buffer's probe.
    const decided = handler(mayYield);
    if (typeof decided === "boolean") return verdict(decided);
    return target.handleAsyncify(sleeper, () => decided.then(verdict));
  };
  return {
    set: (rt, handler) => void handlers.set(rt, handler),
    delete: (rt) => void handlers.delete(rt),
    saveBufferFits,
  };
}

/** The compute a guest does before the thread's event loop runs again (chosen by measurement: bench, "Sandbox engines"). */
export const DEFAULT_SLICE_MS = 5;

/** A run's compute cut into slices (see installYieldingInterrupts). */
export interface TimeSlices {
  /** The guest started (or resumed) computing now. */
  started(now: number): void;
  /** The guest has computed for a whole slice since it last started: it should yield. */
  due(now: number): boolean;
  /** Settles once the event loop has run once (I/O, timers and signals included). */
  pause(): Promise<void>;
}

/** Slices of `sliceMs` of compute; 0 or less never yields (the thread is the guest's until it ends or waits). */
export function timeSlices(sliceMs: number): TimeSlices {
  let since = 0;
  return {
    started: (now) => void (since = now),
    due: (now) => sliceMs > 0 && now - since >= sliceMs,
    // setImmediate runs after the poll phase: I/O and signal callbacks that were ready run first.
    pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
}
