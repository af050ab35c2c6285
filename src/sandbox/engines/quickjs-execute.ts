import type * as QuickJs from "quickjs-emscripten-core";
import type * as WorkerThreads from "node:worker_threads";
import type { EngineOutcome, ThrownInfo } from "../host/outcome.js";
import type { EngineLimit, LogEntry, LogLevel, RunLimits } from "../types.js";
import type { ControlLayout, DoneMessage, HostEventMessage, HostPortMessage, HostReplyMessage, RunMessage, SPIN_SLOTS } from "./quickjs-protocol.js";
import type { PreparedSandbox } from "./quickjs-sandbox.js";
import type { InterruptPace } from "./quickjs-heap.js";
import type { PreemptionMeter } from "./preemption-meter.js";

/** The worker's side of the host-call channel (see quickjs-protocol.ts). */
export interface WorkerChannel {
  readonly port: WorkerThreads.MessagePort;
  readonly control: Int32Array;
  readonly layout: ControlLayout;
  /** The next host -> worker message (reply mailbox, then call port), or undefined if none is there yet. */
  take(): HostPortMessage | undefined;
  /** The engine's SpinBudget, viewed from this worker. */
  readonly spin: { readonly counters: Int32Array; readonly max: number; readonly slots: typeof SPIN_SLOTS };
  /** Size of the wasm linear memory now. */
  wasmMemoryBytes(): number;
  /** See HeapMeter.limitHeadroom (quickjs-heap.ts). */
  limitHeadroom(ceiling: number | undefined): void;
  /** See HeapMeter.overBudget (quickjs-heap.ts). */
  overBudget(): boolean;
  /** See HeapMeter.paceChecks (quickjs-heap.ts). */
  paceChecks(context: number): InterruptPace;
  /** A new meter of the time this thread's core was taken from a run (preemption-meter.ts). */
  preemptionMeter(): PreemptionMeter;
}

/**
 * Runs one guest program in a prepared sandbox and reports how it ended. RUNS IN THE WORKER THREAD
 * (embedded by its source text, see quickjs-assets.ts): it references nothing outside its body.
 * The caller releases the sandbox afterwards.
 *
 * Limits are enforced by the interrupt handler; host calls block this thread in Atomics.wait until
 * the host replies. The synchronous build is half the asyncify build's size and runs guest code faster;
 * the in-thread engine (quickjs-inline.ts) uses asyncify instead, suspending the guest's wasm stack.
 */
export function executeQuickJsRun(sandbox: PreparedSandbox, run: RunMessage, channel: WorkerChannel): DoneMessage {
  const LEVELS: readonly string[] = ["log", "info", "warn", "error", "debug"];
  const { context, runtime } = sandbox;
  const { control, layout, port } = channel;
  const limits: RunLimits = run.limits;
  let cpuSpent = 0;
  let runningSince = performance.now();
  let localStop: EngineLimit | undefined;
  let hostCalls = 0;
  let nextCallId = 0;
  let poisoned = false;
  let trapped = false;
  const logs: LogEntry[] = [];
  let logBytes = 0;
  let droppedLogs = 0;
  let finalizerThrows = 0;
  const pending = new Map<number, QuickJs.QuickJSDeferredPromise>();
  // Replies that arrived while the guest waited for another call (an async call's reply during a
  // sync call, or the outer call's reply during a call made from inside a listener).
  const early: HostReplyMessage[] = [];
  // callId -> the guest's listener for that call's events (an `onProgress` callback, see GuestListener).
  const listeners = new Map<number, QuickJs.QuickJSHandle>();
  // Waking a thread asleep in Atomics.wait costs tens of µs (more on a VM or a busy machine), more
  // than the host needs to answer a trivial call, so the worker first polls for a reply this long.
  // It does so only while the previous reply came within that window (a run whose host calls are
  // slow, e.g. network or MCP servers, would only burn CPU) and while a spinner slot is free (see
  // SpinBudget). Waiting is not counted as the guest's CPU time.
  const SPIN_MS = 0.15;
  let spinning = true;

  // QuickJS's own memory limit sees real sizes only for some allocations in this wasm build (it cannot
  // ask the allocator for usable sizes), so many medium allocations slip past it. The wasm memory
  // itself is the ground truth: growth beyond the run's budget since the run started ends the run.
  // During the run the heap's headroom stops at the budget and an allocation needing more is refused
  // (quickjs-heap.ts, overBudget), so the growth is what the run needed, not Emscripten's 1.2x steps.
  // (Memory free in the heap at the start is used before it grows; retireAboveBytes bounds that.)
  channel.limitHeadroom(channel.wasmMemoryBytes() + limits.memoryBytes);

  // QuickJS's checks come after a count of steps; the pace keeps them about a millisecond of compute apart.
  const pace = channel.paceChecks((context as unknown as { ctx: { value: number } }).ctx.value);
  pace.start(0);

  const stopRequested = (): boolean => Atomics.load(control, layout.stop) !== layout.none;
  // CPU time is counted only while guest code runs, not while it waits for the host.
  const pause = (): void => void (cpuSpent += performance.now() - runningSince);
  // Time the kernel gave this thread's core to others while the guest ran is not the guest's CPU.
  const preemption = channel.preemptionMeter();
  const resume = (): void => {
    runningSince = performance.now();
    preemption.stretchStarted();
  };

  // Where the manifest's first line ends: configure gets that line, the tables come on request (manifestTables).
  const headEnd = run.manifestText.indexOf("\n");

  let outcome: EngineOutcome;
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(run.stackBytes);
    sandbox.hooks = {
      callSync: (m, f, a, l) => {
        const callId = startCall("sync", context.getString(m), context.getString(f), context.getString(a), l);
        pause();
        let reply: HostReplyMessage | undefined;
        try {
          for (;;) {
            reply = takeEarly(callId);
            if (reply !== undefined) break;
            const message = nextReply();
            if (message === undefined) break;
            if (message.type === "event") {
              // The guest waits inside this call, but its listener runs now: progress is seen as it happens.
              deliver(message);
              if (localStop !== undefined) break;
            } else if (message.callId === callId) {
              reply = message;
              break;
            } else {
              early.push(message);
            }
          }
        } finally {
          dropListener(callId);
        }
        resume();
        if (reply === undefined) return { error: context.newError("The run was stopped") };
        return context.newString(reply.text);
      },
      callAsync: (m, f, a, l) => {
        const callId = startCall("async", context.getString(m), context.getString(f), context.getString(a), l);
        const deferred = context.newPromise();
        pending.set(callId, deferred);
        return deferred.handle.dup();
      },
      log: (level, message) => record(context.getString(level), context.getString(message)),
      manifestTables: () => context.newString(headEnd === -1 ? "" : run.manifestText.slice(headEnd + 1)),
      shouldInterrupt,
    };
    runtime.setInterruptHandler(() => sandbox.hooks?.shouldInterrupt() ?? true);
    try {
      outcome = execute();
    } finally {
      for (const deferred of pending.values()) deferred.dispose();
      for (const listener of listeners.values()) listener.dispose();
      listeners.clear();
    }
  } catch (error) {
    // A wasm trap or a host exception (e.g. the thread's own stack overflowing inside deeply
    // recursive native code) unwound through QuickJS: its memory can no longer be trusted.
    poisoned = true;
    trapped = true;
    outcome =
      error instanceof RangeError
        ? { kind: "uncaught", error: { name: "InternalError", message: "stack overflow" } }
        : { kind: "failure", message: `QuickJS failed: ${String(error)}` };
  }
  sandbox.hooks = undefined;
  pause();
  preemption.close();

  // A short script can allocate a lot between interrupt checks; the run still fails if it did.
  if (localStop === undefined && channel.overBudget()) localStop = "memoryBytes";
  channel.limitHeadroom(undefined);
  const stop = Atomics.load(control, layout.stop);
  if (stop === layout.cancelled) outcome = { kind: "cancelled" };
  else if (stop === layout.wall) outcome = { kind: "limit", limit: "wallMs" };
  else if (localStop !== undefined) outcome = { kind: "limit", limit: localStop };
  // A run stopped mid-flight can leave QuickJS with state (e.g. an endless microtask queue) that
  // crashes the worker when the runtime is freed; such a worker is replaced rather than reused.
  if (outcome.kind === "limit" || outcome.kind === "cancelled") poisoned = true;

  return {
    type: "done",
    runId: run.runId,
    outcome,
    logs,
    logBytes,
    droppedLogs,
    cpuMs: cpuSpent - preemption.preemptedMs(),
    hostCalls,
    poisoned,
    trapped,
    wasmMemoryBytes: channel.wasmMemoryBytes(),
  };

  function shouldInterrupt(): boolean {
    if (stopRequested() || localStop !== undefined) return true;
    const now = performance.now();
    const computed = cpuSpent + now - runningSince;
    pace.check(computed);
    if (computed - preemption.observe(now, computed) > limits.cpuMs) localStop = "cpuMs";
    else if (Date.now() >= run.deadline) localStop = "wallMs";
    else if (channel.overBudget()) localStop = "memoryBytes";
    return localStop !== undefined;
  }

  /** The next reply or event for this run, or undefined once the run must stop. */
  function nextReply(): HostPortMessage | undefined {
    const waitingSince = performance.now();
    const reply = awaitReply();
    spinning = reply !== undefined && performance.now() - waitingSince <= SPIN_MS;
    return reply;
  }

  function awaitReply(): HostPortMessage | undefined {
    for (;;) {
      const received = channel.take();
      if (received !== undefined) {
        if (received.runId === run.runId) return received;
        continue;
      }
      if (stopRequested()) return undefined;
      const remaining = run.deadline - Date.now();
      if (remaining <= 0) {
        localStop ??= "wallMs";
        return undefined;
      }
      const seen = Atomics.load(control, layout.wake);
      const raced = channel.take();
      if (raced !== undefined) {
        if (raced.runId === run.runId) return raced;
        continue;
      }
      if (spinning) spinWhileUnchanged(seen, Math.min(SPIN_MS, remaining));
      Atomics.wait(control, layout.wake, seen, remaining);
    }
  }

  /** Polls the wake word (bumped by every reply and stop request) for at most `ms`, if the SpinBudget allows. */
  function spinWhileUnchanged(seen: number, ms: number): void {
    const { counters, max, slots } = channel.spin;
    if (Atomics.load(counters, slots.running) > max) return;
    if (Atomics.add(counters, slots.spinning, 1) < max) {
      const until = performance.now() + ms;
      while (Atomics.load(control, layout.wake) === seen && performance.now() < until);
    }
    Atomics.sub(counters, slots.spinning, 1);
  }

  function record(given: string, message: string): void {
    const level = (LEVELS.includes(given) ? given : "log") as LogLevel;
    // Each entry costs its JSON framing, not only its text (logEntryBytes in host/output-budget.ts;
    // this file cannot import it): a million empty console.log() calls are not free.
    const bytes = Buffer.byteLength(JSON.stringify({ level, message }), "utf8") + 1;
    if (localStop === "outputBytes" || logBytes + bytes > limits.outputBytes) {
      droppedLogs++;
      localStop ??= "outputBytes";
      return;
    }
    logs.push({ level, message });
    logBytes += bytes;
  }

  function execute(): EngineOutcome {
    const manifest = context.newString(headEnd === -1 ? run.manifestText : run.manifestText.slice(0, headEnd));
    const runner = context.callFunction(sandbox.configure, context.undefined, manifest);
    manifest.dispose();
    if (runner.error) return { kind: "uncaught", error: describe(runner.error) };
    try {
      return start(runner.value);
    } finally {
      runner.value.dispose();
    }
  }

  function start(runner: QuickJs.QuickJSHandle): EngineOutcome {
    if (run.prelude !== undefined) {
      const prelude = context.evalCode(run.prelude, "mcpvm-prelude.js");
      if (prelude.error) return { kind: "prelude", error: describe(prelude.error) };
      prelude.value.dispose();
    }
    const compiled = context.evalCode(run.code, run.filename);
    if (compiled.error) {
      const error = describe(compiled.error);
      if (error.name !== "SyntaxError") return { kind: "uncaught", error };
      const at = /:(\d+):(\d+)/.exec(error.stack ?? "");
      return { kind: "syntax", message: error.message, line: Number(at?.[1] ?? 1), column: Number(at?.[2] ?? 1) };
    }
    const startFn = context.getProp(runner, "start");
    const started = context.callFunction(startFn, runner, compiled.value);
    startFn.dispose();
    compiled.value.dispose();
    if (started.error) return { kind: "uncaught", error: describe(started.error) };
    try {
      return drive(started.value);
    } finally {
      started.value.dispose();
    }
  }

  /** Runs jobs and delivers async replies until the runner's promise settles or the run stops. */
  function drive(promise: QuickJs.QuickJSHandle): EngineOutcome {
    for (;;) {
      for (let reply = early.shift(); reply !== undefined; reply = early.shift()) settle(reply);
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        // Only a FinalizationRegistry callback's throw escapes a job (promise jobs reject instead): a
        // warning, not the failure of a run that went on or had returned. Limits and exhaustion still end it.
        const error = describe(jobs.error);
        if (localStop !== undefined || stopRequested() || error.name === "InternalError") return { kind: "uncaught", error };
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
      if (early.length > 0) continue;
      if (pending.size === 0) return { kind: "deadlock" };
      pause();
      const reply = nextReply();
      // Stopped: the caller replaces this outcome with the stop reason.
      if (reply === undefined) return { kind: "cancelled" };
      if (reply.type === "event") deliver(reply);
      resume();
      if (reply.type === "reply") settle(reply);
    }
  }

  /** The reply to `callId` if it already arrived (see `early`). */
  function takeEarly(callId: number): HostReplyMessage | undefined {
    const index = early.findIndex((reply) => reply.callId === callId);
    return index === -1 ? undefined : early.splice(index, 1)[0];
  }

  /**
   * Runs the listener of the event's call with the event's JSON text. Called while the guest waits
   * (paused); the listener's own time counts as guest CPU. The bootstrap's listener catches what the
   * guest callback throws, so an error here is an interrupt (a limit), recorded by the handler.
   */
  function deliver(event: HostEventMessage): void {
    const listener = listeners.get(event.callId);
    if (listener === undefined || localStop !== undefined || stopRequested()) return;
    resume();
    const text = context.newString(event.text);
    try {
      const result = context.callFunction(listener, context.undefined, text);
      if (result.error) result.error.dispose();
      else result.value.dispose();
    } finally {
      text.dispose();
      pause();
    }
  }

  function dropListener(callId: number): void {
    listeners.get(callId)?.dispose();
    listeners.delete(callId);
  }

  function settle(reply: HostReplyMessage): void {
    dropListener(reply.callId);
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

  function startCall(mode: "sync" | "async", module: string, fn: string, argsText: string, listener: QuickJs.QuickJSHandle | undefined): number {
    hostCalls++;
    const callId = nextCallId++;
    const listen = listener !== undefined && context.typeof(listener) === "function";
    if (listen) listeners.set(callId, listener.dup());
    port.postMessage({ type: "call", runId: run.runId, callId, mode, module, fn, argsText, listen });
    return callId;
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
