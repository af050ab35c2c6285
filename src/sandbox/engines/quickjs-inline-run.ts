import type * as QuickJs from "quickjs-emscripten-core";
import type { EngineOutcome, ThrownInfo } from "../host/outcome.js";
import type { EngineLimit, LogEntry, LogLevel } from "../types.js";
import type { InlineInstance } from "./quickjs-inline-adapter.js";
import type { AsyncifyRunParts, AsyncifyRunPlan, InlineRunHandle, InlineRunResult } from "./quickjs-inline-run-parts.js";
import type { InlineHooks, InlineSandbox } from "./quickjs-inline-sandbox.js";

/**
 * Runs one guest program on this thread, in a prepared sandbox of an asyncify instance (the in-thread
 * engine on the caller's thread; the worker engine inside its threads, started from this function's
 * source text: it must reference nothing outside its body but its arguments).
 *
 * A synchronous host call (`require("host:x").fn()`) suspends the guest: the wasm stack unwinds, the
 * host function runs on this thread's event loop, and its reply rewinds the stack, with no thread
 * crossing. Asynchronous calls (`__mcpvm.callAsync`) settle guest promises between job batches.
 * Limits: CPU, wall and memory are checked by QuickJS's interrupt handler while guest code runs. A
 * guest that computes for a whole time slice is suspended there until this thread's event loop has
 * run once (`parts.slices`), so signals, timers, I/O and other runs are served meanwhile; CPU counts
 * only the time this guest computed. A stop while the guest waits in a host call answers that call at
 * once; a stop while it waits between slices interrupts it as it resumes.
 * Never rejects; the caller releases or discards the sandbox.
 */
export function runAsyncify(
  instance: InlineInstance,
  sandbox: InlineSandbox,
  plan: AsyncifyRunPlan,
  parts: AsyncifyRunParts,
  onStart?: (handle: InlineRunHandle) => void,
): Promise<InlineRunResult> {
  const LEVELS: readonly string[] = ["log", "info", "warn", "error", "debug"];
  const STOPPED = { error: "The run was stopped" } as const;
  const { runtime } = sandbox;
  const context = sandbox.context as QuickJs.QuickJSAsyncContext;
  const limits = plan.limits;
  const startedAt = performance.now();
  const deadline = Date.now() + limits.wallMs;
  const modules = parts.calls;
  // The host calls' signal and the wall timer are made when first needed: a run that makes no host
  // call and never waits (most trivial runs) needs neither, and in a shared worker each cost tens of
  // µs of a warm run (the run's own interrupt checks end a computing guest at its deadline).
  let hostCalls: AbortController | undefined;
  let callContext: { readonly signal: AbortSignal; readonly deadline: number } | undefined;
  let wallTimer: ReturnType<typeof setTimeout> | undefined;
  // The heap's growth during the run is its memory use (see the worker engine's quickjs-execute.ts);
  // headroom beyond the budget is not granted, so the growth is what the run needed.
  instance.limitHeadroom(instance.wasmMemoryBytes() + limits.memoryBytes);

  let cpuSpent = 0;
  let runningSince = startedAt;
  // QuickJS's checks come after a count of steps; the pace keeps them about a millisecond of compute apart.
  const pace = instance.paceChecks((context as unknown as { ctx: { value: number } }).ctx.value);
  pace.start(0);
  let running = false;
  let stopping: "wall" | "cancel" | undefined;
  let localStop: EngineLimit | undefined;
  let moving = false;
  let callCount = 0;
  let nextCallId = 0;
  const logs: LogEntry[] = [];
  let logBytes = 0;
  let droppedLogs = 0;
  let finalizerThrows = 0;
  /** Async calls in flight: callId -> the guest promise their reply settles. */
  const pending = new Map<number, QuickJs.QuickJSDeferredPromise>();
  /** Async calls' listeners (an `onProgress` callback), by callId. */
  const listeners = new Map<number, QuickJs.QuickJSHandle>();
  /** Replies and events of async calls, delivered between job batches (never while the guest is suspended). */
  const inbox: Array<{ readonly kind: "reply" | "event"; readonly callId: number; readonly text: string }> = [];
  /** The synchronous call the guest is suspended in, if any: answering it resumes the guest. */
  let suspendedCall: ((text: string | undefined) => void) | undefined;
  let wake: (() => void) | undefined;

  const slices = parts.slices;
  // Time the kernel gave this thread's core to others while the guest ran is not the guest's CPU.
  const preemption = parts.preemptionMeter();
  const resume = (): void => {
    if (running) return;
    running = true;
    runningSince = performance.now();
    preemption.stretchStarted();
    slices?.started(runningSince);
  };
  const pause = (): void => {
    if (!running) return;
    running = false;
    cpuSpent += performance.now() - runningSince;
  };
  const poke = (): void => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };

  const stop = (reason: "wall" | "cancel"): void => {
    if (stopping !== undefined) return;
    stopping = reason;
    hostCalls?.abort(parts.runEnded(reason === "wall" ? "WALL_LIMIT" : "CANCELLED"));
    // A host function that ignores its signal must not hold the guest: its call is answered now.
    suspendedCall?.(undefined);
    poke();
  };
  const onCancel = (): void => stop("cancel");
  /** Before the guest first waits (a host call, its pending promises): then only a timer can end it at its deadline. */
  const armWallTimer = (): void => {
    wallTimer ??= setTimeout(() => stop("wall"), Math.max(0, deadline - Date.now()));
  };
  /** The context of the run's host calls; a call made once the run is stopping gets a signal already aborted. */
  const callsContext = (): { readonly signal: AbortSignal; readonly deadline: number } => {
    if (callContext !== undefined) return callContext;
    hostCalls = new AbortController();
    if (stopping !== undefined) hostCalls.abort(parts.runEnded(stopping === "wall" ? "WALL_LIMIT" : "CANCELLED"));
    callContext = { signal: hostCalls.signal, deadline };
    return callContext;
  };
  plan.signal?.addEventListener("abort", onCancel, { once: true });
  onStart?.({ stop });

  const limitReached = (now: number): boolean => {
    parts.beat?.();
    if (stopping === undefined && parts.externalStop !== undefined) {
      const external = parts.externalStop();
      if (external !== undefined) stop(external);
    }
    if (stopping !== undefined || localStop !== undefined || moving) return true;
    const computed = cpuSpent + now - runningSince;
    if (computed - preemption.observe(now, computed) > limits.cpuMs) localStop = "cpuMs";
    else if (Date.now() >= deadline) localStop = "wallMs";
    else if (instance.overBudget()) localStop = "memoryBytes";
    else if (plan.moveAfterCpuMs !== undefined && callCount === 0 && logs.length === 0 && droppedLogs === 0 && cpuSpent + now - runningSince > plan.moveAfterCpuMs) moving = true;
    return localStop !== undefined || moving;
  };
  const shouldInterrupt = (mayYield: () => boolean): boolean | Promise<boolean> => {
    const now = performance.now();
    pace.check(cpuSpent + now - runningSince);
    if (limitReached(now)) return true;
    if (slices?.due(now) !== true || !mayYield()) return false;
    pause();
    // Checked again as the guest resumes: a stop or the wall limit that came meanwhile ends it then.
    return slices.pause().then(() => {
      resume();
      return limitReached(performance.now());
    });
  };

  const startCall = (module: string, fn: string, argsText: string, listen: boolean) => {
    callCount++;
    return { callId: nextCallId++, request: { module, fn, argsText, listen } };
  };

  // Where the manifest's first line ends (see GuestRunManifest): the bootstrap gets that line, the tables on request.
  const headEnd = plan.manifestText.indexOf("\n");
  const hooks: InlineHooks = {
    // A promise suspends the guest until it settles (see the adapter). Events of this call travel
    // with its reply: the guest cannot run its listener while suspended.
    callSync: (args, hasListener) => {
      const { request } = startCall(args[0] ?? "", args[1] ?? "", args[2] ?? "", hasListener);
      if (stopping !== undefined) return STOPPED;
      pause();
      armWallTimer();
      // A reply already here goes back to the guest at once; the wait was not the guest's CPU (paused).
      const now = modules.callWaiting?.(request, callsContext());
      if (typeof now === "string") {
        resume();
        return now;
      }
      return new Promise<string | { readonly error: string }>((resolve) => {
        let answered = false;
        const answer = (text: string | undefined): void => {
          if (answered) return;
          answered = true;
          suspendedCall = undefined;
          resume();
          resolve(text === undefined ? STOPPED : text);
        };
        suspendedCall = answer;
        void (now ?? modules.call(request, callsContext())).then(answer);
      });
    },
    callAsync: (m, f, a, l) => {
      const listen = l !== undefined && context.typeof(l) === "function";
      const { callId, request } = startCall(context.getString(m), context.getString(f), context.getString(a), listen);
      const deferred = context.newPromise();
      pending.set(callId, deferred);
      if (listen && l !== undefined) listeners.set(callId, l.dup());
      const events = listen ? { live: (text: string) => void (stopping === undefined && (inbox.push({ kind: "event", callId, text }), poke())) } : {};
      void modules.call(request, callsContext(), events).then((text) => {
        inbox.push({ kind: "reply", callId, text });
        poke();
      });
      return deferred.handle.dup();
    },
    log: (level, message) => record(level, message),
    manifestTables: () => plan.manifestText.slice(headEnd + 1),
    shouldInterrupt,
  };

  const finish = (outcome: EngineOutcome, poisoned: boolean, trapped: boolean): InlineRunResult => {
    instance.limitHeadroom(undefined);
    clearTimeout(wallTimer);
    plan.signal?.removeEventListener("abort", onCancel);
    pause();
    preemption.close();
    for (const deferred of pending.values()) if (deferred.alive) deferred.dispose();
    for (const listener of listeners.values()) if (listener.alive) listener.dispose();
    pending.clear();
    listeners.clear();
    sandbox.hooks = undefined;
    // A run that made no host call handed its signal to nobody: no reason to build an error with a stack.
    if (hostCalls !== undefined && !hostCalls.signal.aborted) hostCalls.abort(parts.runEndedFor(outcome));
    return {
      report: { outcome, logs, logBytes, droppedLogs, stats: { engine: parts.engine, wallMs: performance.now() - startedAt, cpuMs: cpuSpent - preemption.preemptedMs(), hostCalls: callCount } },
      poisoned,
      trapped,
    };
  };

  return execute().then(
    ({ outcome, poisoned }) => {
      if (localStop === undefined && instance.overBudget()) localStop = "memoryBytes";
      let final = outcome;
      if (stopping === "cancel") final = { kind: "cancelled" };
      else if (stopping === "wall") final = { kind: "limit", limit: "wallMs" };
      else if (localStop !== undefined) final = { kind: "limit", limit: localStop };
      else if (moving) final = { kind: "moved" };
      // Stopped mid-flight, QuickJS may hold state (an endless job queue) that is not worth freeing.
      return finish(final, poisoned || final.kind === "limit" || final.kind === "cancelled" || final.kind === "moved", poisoned);
    },
    (error: unknown) => finish({ kind: "failure", message: `QuickJS failed: ${String(error)}` }, true, true),
  );

  async function execute(): Promise<{ outcome: EngineOutcome; poisoned: boolean }> {
    try {
      runtime.setMemoryLimit(limits.memoryBytes);
      instance.setStackLimit(runtime, plan.stackBytes);
      sandbox.hooks = hooks;
      instance.setInterruptHandler(runtime, (mayYield) => sandbox.hooks?.shouldInterrupt(mayYield) ?? true);
      resume();
      return { outcome: await start(), poisoned: false };
    } catch (error) {
      // A wasm trap or a host exception (this thread's own stack overflowing inside deeply recursive
      // native code) unwound through QuickJS: its memory can no longer be trusted.
      const outcome: EngineOutcome =
        error instanceof RangeError ? { kind: "uncaught", error: { name: "InternalError", message: "stack overflow" } } : { kind: "failure", message: `QuickJS failed: ${String(error)}` };
      return { outcome, poisoned: true };
    }
  }

  async function start(): Promise<EngineOutcome> {
    // The manifest's first line only; the guest asks for the rest when it needs it (GuestNative.manifestTables).
    const manifest = context.newString(plan.manifestText.slice(0, headEnd));
    const runner = context.callFunction(sandbox.configure, context.undefined, manifest);
    manifest.dispose();
    if (runner.error) return { kind: "uncaught", error: describe(runner.error) };
    try {
      if (plan.prelude !== undefined) {
        const prelude = await instance.evalCode(context, plan.prelude, "mcpvm-prelude.js");
        if (prelude.error) return { kind: "prelude", error: describe(prelude.error) };
        prelude.value.dispose();
      }
      const compiled = await instance.evalCode(context, plan.code, plan.filename);
      if (compiled.error) {
        const error = describe(compiled.error);
        if (error.name !== "SyntaxError") return { kind: "uncaught", error };
        const at = /:(\d+):(\d+)/.exec(error.stack ?? "");
        return { kind: "syntax", message: error.message, line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 1) };
      }
      const startFn = context.getProp(runner.value, "start");
      const started = await instance.callFunction(context, startFn, runner.value, [compiled.value]);
      startFn.dispose();
      compiled.value.dispose();
      if (started.error !== undefined) return { kind: "uncaught", error: describe(started.error) };
      try {
        return await drive(started.value);
      } finally {
        started.value.dispose();
      }
    } finally {
      runner.value.dispose();
    }
  }

  /** Runs jobs and delivers async replies and events until the runner's promise settles or the run stops. */
  async function drive(promise: QuickJs.QuickJSHandle): Promise<EngineOutcome> {
    for (;;) {
      if (stopping !== undefined) return { kind: "cancelled" };
      resume();
      for (let item = inbox.shift(); item !== undefined; item = inbox.shift()) {
        if (item.kind === "reply") settle(item.callId, item.text);
        else await deliver(item.callId, item.text);
      }
      const jobs = await instance.executePendingJobs(runtime, context);
      if (jobs.error !== undefined) {
        // As in quickjs-execute.ts: a FinalizationRegistry callback's throw is a warning, not the run's failure.
        const error = describe(jobs.error);
        if (localStop !== undefined || stopping !== undefined || error.name === "InternalError") return { kind: "uncaught", error };
        // The first only: a registry's callback runs once per collected object, and each would be a line.
        if (finalizerThrows++ === 0) record("warn", `a FinalizationRegistry callback threw (the run went on; later ones are not shown): ${error.name ?? "Error"}: ${error.message}\n${(error.stack ?? "").replace(/:(\d+):\d+\)/g, ":$1)").trimEnd()}`.trimEnd());
        continue;
      }
      const state = context.getPromiseState(promise);
      if (state.type === "fulfilled") {
        const text = context.typeof(state.value) === "string" ? context.getString(state.value) : undefined;
        state.value.dispose();
        return text === undefined ? { kind: "failure", message: "The guest runner returned a non-string" } : { kind: "envelope", text };
      }
      if (state.type === "rejected") return { kind: "uncaught", error: describe(state.error) };
      if (inbox.length > 0) continue;
      if (pending.size === 0) return { kind: "deadlock" };
      pause();
      armWallTimer();
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }

  function settle(callId: number, text: string): void {
    listeners.get(callId)?.dispose();
    listeners.delete(callId);
    const deferred = pending.get(callId);
    if (deferred === undefined) return;
    pending.delete(callId);
    const value = context.newString(text);
    try {
      deferred.resolve(value);
    } catch {
      // Resolving only fails when the runtime is being interrupted; the stop reason is recorded.
    } finally {
      value.dispose();
      deferred.dispose();
    }
  }

  /** Runs an async call's listener with one event (it may itself make host calls, so it may suspend). */
  async function deliver(callId: number, text: string): Promise<void> {
    const listener = listeners.get(callId);
    if (listener === undefined || localStop !== undefined || stopping !== undefined) return;
    const event = context.newString(text);
    try {
      const result = await instance.callFunction(context, listener, context.undefined, [event]);
      (result.error ?? result.value).dispose();
    } finally {
      event.dispose();
    }
  }

  function record(given: string, message: string): void {
    const level = (LEVELS.includes(given) ? given : "log") as LogLevel;
    const bytes = parts.logEntryBytes(level, message);
    if (localStop === "outputBytes" || logBytes + bytes > limits.outputBytes) {
      droppedLogs++;
      localStop ??= "outputBytes";
      return;
    }
    logs.push({ level, message });
    logBytes += bytes;
  }

  /** Name, message and stack of a thrown guest value, read without trusting its shape. */
  function describe(handle: QuickJs.QuickJSHandle): ThrownInfo {
    try {
      if (context.typeof(handle) !== "object") return { message: String(context.dump(handle)) };
      const read = (key: string): string | undefined => {
        const value = context.getProp(handle, key);
        try {
          return context.typeof(value) === "string" ? context.getString(value) : undefined;
        } finally {
          value.dispose();
        }
      };
      const name = read("name");
      const stack = read("stack");
      return { message: read("message") ?? "", ...(name === undefined ? {} : { name }), ...(stack === undefined ? {} : { stack }) };
    } catch {
      return { message: "Uncaught exception (it could not be inspected)" };
    } finally {
      handle.dispose();
    }
  }
}
