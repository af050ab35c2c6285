import type * as QuickJs from "quickjs-emscripten-core";
import type * as WorkerThreads from "node:worker_threads";
import type { EngineOutcome, ThrownInfo } from "../host/outcome.js";
import type { LogEntry, LogLevel, RunLimits } from "../types.js";
import type { DoneMessage, HostReplyMessage, RunMessage, WorkerBoot } from "./quickjs-protocol.js";

/**
 * The program of a QuickJS worker thread. It is started as `(${source})(require)` in an eval
 * worker, so this function must not reference anything outside its own body (imports above are
 * types only); modules come from the `load` argument, data from workerData.
 *
 * Each run gets a fresh QuickJS runtime and context (no state survives a run), limits enforced by
 * the interrupt handler, and host calls that block this thread (see quickjs-protocol.ts) — not
 * asyncify, which cannot suspend inside promise jobs, so `await x; host.fn()` would corrupt it.
 */
export function quickJsWorkerMain(load: (id: string) => unknown): void {
  const threads = load("node:worker_threads") as typeof WorkerThreads;
  const parentPort = threads.parentPort as WorkerThreads.MessagePort;
  const boot = threads.workerData as WorkerBoot;
  const core = load(boot.corePath) as typeof QuickJs;
  const variant = (load(boot.variantPath) as { default: QuickJs.QuickJSAsyncVariant }).default;
  const layout = boot.layout;
  const control = new Int32Array(boot.control);
  const port = boot.port;
  const LEVELS: readonly string[] = ["log", "info", "warn", "error", "debug"];

  core.newQuickJSAsyncWASMModuleFromVariant(core.newVariant(variant, { wasmModule: boot.wasmModule })).then(
    (module) => {
      parentPort.on("message", (message: RunMessage) => parentPort.postMessage(runOnce(module, message)));
      parentPort.postMessage({ type: "ready" });
    },
    (error: unknown) => parentPort.postMessage({ type: "boot-failed", message: String(error) }),
  );

  function runOnce(module: QuickJs.QuickJSAsyncWASMModule, run: RunMessage): DoneMessage {
    const limits: RunLimits = run.limits;
    let cpuSpent = 0;
    let runningSince = performance.now();
    let localStop: keyof RunLimits | undefined;
    let hostCalls = 0;
    let nextCallId = 0;
    let poisoned = false;
    const logs: LogEntry[] = [];
    let logBytes = 0;
    let droppedLogs = 0;
    const pending = new Map<number, QuickJs.QuickJSDeferredPromise>();
    const early: HostReplyMessage[] = [];

    const stopRequested = (): boolean => Atomics.load(control, layout.stop) !== layout.none;
    // CPU time is counted only while guest code runs, not while it waits for the host.
    const pause = (): void => void (cpuSpent += performance.now() - runningSince);
    const resume = (): void => void (runningSince = performance.now());

    function shouldInterrupt(): boolean {
      if (stopRequested() || localStop !== undefined) return true;
      if (cpuSpent + performance.now() - runningSince > limits.cpuMs) localStop = "cpuMs";
      else if (Date.now() >= run.deadline) localStop = "wallMs";
      return localStop !== undefined;
    }

    /** The next reply for this run, or undefined once the run must stop. */
    function nextReply(): HostReplyMessage | undefined {
      for (;;) {
        const received = threads.receiveMessageOnPort(port);
        if (received !== undefined) {
          const reply = received.message as HostReplyMessage;
          if (reply.runId === run.runId) return reply;
          continue;
        }
        if (stopRequested()) return undefined;
        const remaining = run.deadline - Date.now();
        if (remaining <= 0) {
          localStop ??= "wallMs";
          return undefined;
        }
        const seen = Atomics.load(control, layout.wake);
        const raced = threads.receiveMessageOnPort(port);
        if (raced !== undefined) {
          const reply = raced.message as HostReplyMessage;
          if (reply.runId === run.runId) return reply;
          continue;
        }
        Atomics.wait(control, layout.wake, seen, remaining);
      }
    }

    function record(level: string, message: string): void {
      const bytes = Buffer.byteLength(message, "utf8");
      if (localStop === "outputBytes" || logBytes + bytes > limits.outputBytes) {
        droppedLogs++;
        localStop ??= "outputBytes";
        return;
      }
      logs.push({ level: (LEVELS.includes(level) ? level : "log") as LogLevel, message });
      logBytes += bytes;
    }

    let outcome: EngineOutcome;
    const runtime = module.newRuntime();
    try {
      runtime.setMemoryLimit(limits.memoryBytes);
      runtime.setMaxStackSize(run.stackBytes);
      runtime.setInterruptHandler(shouldInterrupt);
      const context = runtime.newContext();
      try {
        outcome = execute(context);
      } finally {
        for (const deferred of pending.values()) deferred.dispose();
        context.dispose();
      }
    } catch (error) {
      // A wasm trap or a host exception (e.g. the thread's own stack overflowing inside deeply
      // recursive native code) unwound through QuickJS: its memory can no longer be trusted.
      poisoned = true;
      outcome =
        error instanceof RangeError
          ? { kind: "uncaught", error: { name: "InternalError", message: "stack overflow" } }
          : { kind: "failure", message: `QuickJS failed: ${String(error)}` };
    }
    try {
      releaseRuntime(runtime);
    } catch {
      poisoned = true;
    }
    pause();

    const stop = Atomics.load(control, layout.stop);
    if (stop === layout.cancelled) outcome = { kind: "cancelled" };
    else if (stop === layout.wall) outcome = { kind: "limit", limit: "wallMs" };
    else if (localStop !== undefined) outcome = { kind: "limit", limit: localStop };

    return {
      type: "done",
      runId: run.runId,
      outcome,
      logs,
      logBytes,
      droppedLogs,
      cpuMs: cpuSpent,
      hostCalls,
      poisoned,
      wasmMemoryBytes: module.getWasmMemory().buffer.byteLength,
    };

    function execute(context: QuickJs.QuickJSAsyncContext): EngineOutcome {
      const native = context.newObject();
      const functions: Record<string, QuickJs.QuickJSHandle> = {
        callSync: context.newFunction("callSync", (m, f, a) => {
          const callId = startCall("sync", context.getString(m), context.getString(f), context.getString(a));
          pause();
          let reply: HostReplyMessage | undefined;
          for (;;) {
            reply = nextReply();
            if (reply === undefined || reply.callId === callId) break;
            early.push(reply);
          }
          resume();
          if (reply === undefined) return { error: context.newError("The run was stopped") };
          return context.newString(reply.text);
        }),
        callAsync: context.newFunction("callAsync", (m, f, a) => {
          const callId = startCall("async", context.getString(m), context.getString(f), context.getString(a));
          const deferred = context.newPromise();
          pending.set(callId, deferred);
          return deferred.handle.dup();
        }),
        log: context.newFunction("log", (level, message) => {
          record(context.getString(level), context.getString(message));
        }),
      };
      for (const [name, handle] of Object.entries(functions)) {
        context.setProp(native, name, handle);
        handle.dispose();
      }

      try {
        const bootstrap = context.evalCode(boot.bootstrapSource, "mcpvm-bootstrap.js");
        if (bootstrap.error) return { kind: "uncaught", error: describe(context, bootstrap.error) };
        const manifest = context.newString(run.manifestText);
        const runner = context.callFunction(bootstrap.value, context.undefined, native, manifest);
        manifest.dispose();
        bootstrap.value.dispose();
        if (runner.error) return { kind: "uncaught", error: describe(context, runner.error) };
        try {
          return start(context, runner.value);
        } finally {
          runner.value.dispose();
        }
      } finally {
        native.dispose();
      }
    }

    function start(context: QuickJs.QuickJSAsyncContext, runner: QuickJs.QuickJSHandle): EngineOutcome {
      if (run.prelude !== undefined) {
        const prelude = context.evalCode(run.prelude, "mcpvm-prelude.js");
        if (prelude.error) return { kind: "prelude", error: describe(context, prelude.error) };
        prelude.value.dispose();
      }
      const compiled = context.evalCode(run.code, run.filename);
      if (compiled.error) {
        const error = describe(context, compiled.error);
        if (error.name !== "SyntaxError") return { kind: "uncaught", error };
        const at = /:(\d+):(\d+)/.exec(error.stack ?? "");
        return { kind: "syntax", message: error.message, line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 1) };
      }
      const startFn = context.getProp(runner, "start");
      const started = context.callFunction(startFn, runner, compiled.value);
      startFn.dispose();
      compiled.value.dispose();
      if (started.error) return { kind: "uncaught", error: describe(context, started.error) };
      try {
        return drive(context, started.value);
      } finally {
        started.value.dispose();
      }
    }

    /** Runs jobs and delivers async replies until the runner's promise settles or the run stops. */
    function drive(context: QuickJs.QuickJSAsyncContext, promise: QuickJs.QuickJSHandle): EngineOutcome {
      for (;;) {
        for (let reply = early.shift(); reply !== undefined; reply = early.shift()) settle(context, reply);
        const jobs = context.runtime.executePendingJobs();
        if (jobs.error) return { kind: "uncaught", error: describe(context, jobs.error) };
        const state = context.getPromiseState(promise);
        if (state.type === "fulfilled") {
          const text = context.typeof(state.value) === "string" ? context.getString(state.value) : undefined;
          state.value.dispose();
          return text === undefined ? { kind: "failure", message: "The guest runner returned a non-string" } : { kind: "envelope", text };
        }
        if (state.type === "rejected") return { kind: "uncaught", error: describe(context, state.error) };
        if (early.length > 0) continue;
        if (pending.size === 0) return { kind: "deadlock" };
        pause();
        const reply = nextReply();
        resume();
        // Stopped: the caller replaces this outcome with the stop reason.
        if (reply === undefined) return { kind: "cancelled" };
        settle(context, reply);
      }
    }

    function settle(context: QuickJs.QuickJSAsyncContext, reply: HostReplyMessage): void {
      const deferred = pending.get(reply.callId);
      if (deferred === undefined) return;
      pending.delete(reply.callId);
      const text = context.newString(reply.text);
      try {
        deferred.resolve(text);
      } catch {
        // Resolving only fails when the runtime is being interrupted; the stop reason is recorded.
      } finally {
        text.dispose();
        deferred.dispose();
      }
    }

    function startCall(mode: "sync" | "async", module: string, fn: string, argsText: string): number {
      hostCalls++;
      const callId = nextCallId++;
      port.postMessage({ type: "call", runId: run.runId, callId, mode, module, fn, argsText });
      return callId;
    }
  }

  /** Name, message and stack of a thrown guest value, read without trusting its shape. */
  function describe(context: QuickJs.QuickJSAsyncContext, handle: QuickJs.QuickJSHandle): ThrownInfo {
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

  /**
   * Disposes a runtime. quickjs-emscripten 0.32's asyncify module forgets the runtime's callbacks
   * before freeing it, so finalizers of host functions that are collected during the final GC find
   * no runtime and throw (upstream issue #261, fixed by PR #256). Keep the callbacks registered
   * until the runtime is gone.
   */
  function releaseRuntime(runtime: QuickJs.QuickJSAsyncRuntime): void {
    const internals = runtime as unknown as {
      callbacks: { deleteRuntime(pointer: unknown): void };
      rt: { value: unknown };
    };
    const callbacks = internals.callbacks;
    const pointer = internals.rt.value;
    const forget = callbacks.deleteRuntime;
    callbacks.deleteRuntime = () => undefined;
    try {
      runtime.dispose();
    } finally {
      callbacks.deleteRuntime = forget;
      callbacks.deleteRuntime(pointer);
    }
  }
}
