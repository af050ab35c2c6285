import type { EngineOutcome, RunReport } from "../host/outcome.js";
import { runEnded, runEndedFor } from "../host/run-ended.js";
import { RunModules } from "../host/run-modules.js";
import type { SharedThreadPlacement } from "./quickjs-shared-placement.js";
import type { SharedCallMessage } from "./quickjs-shared-protocol.js";
import type { SharedQuickJsThread } from "./quickjs-shared-thread.js";
import type { EngineRunPlan } from "./run-admission.js";

export interface SharedRunPlan extends EngineRunPlan {
  readonly runId: number;
  /** How long past a stop a guest may take to notice before its thread is deemed stuck and ended. */
  readonly killGraceMs: number;
  readonly moveAfterCpuMs?: number;
}

/** A run in progress, as its engine sees it: dispose stops it like a cancel. */
export interface SharedRunHandle {
  stop(reason: "wall" | "cancel"): void;
}

/**
 * Runs one request on a shared worker thread: places it (a thread where nothing computes, a new one,
 * or waiting), serves its host calls from this thread's RunModules, and enforces the wall budget and
 * cancellation from this side (abort the host calls' signal, tell the worker by message and by the
 * run's stop word). If the run has not ended `killGraceMs` after a stop and no guest on its thread has
 * reached an interrupt check meanwhile, the thread is stuck in native code and is ended; its other
 * runs fail with it. A guest that computes and checks interrupts is never killed from here: its own
 * interrupt handler ends it at its deadline. Rejects only with the placement's PoolError.
 */
export async function runOnSharedThread(placement: SharedThreadPlacement, plan: SharedRunPlan, onStart?: (handle: SharedRunHandle) => void): Promise<RunReport> {
  // The run's host modules and their calls' signal are made at its first host call: a run that makes
  // none (most trivial runs) needs neither, and each is a few µs of a warm run on a thread just woken.
  let modules: RunModules | undefined;
  let hostCalls: AbortController | undefined;
  let thread: SharedQuickJsThread | undefined;
  let settle: ((report: RunReport) => void) | undefined;
  const result = new Promise<RunReport>((resolve) => (settle = resolve));
  const startedAt = performance.now();
  let deadline = Date.now() + plan.limits.wallMs;
  let stopping: "wall" | "cancel" | undefined;
  let finished = false;
  const timers: { wall?: NodeJS.Timeout; kill?: NodeJS.Timeout } = {};

  const finish = (report: RunReport): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timers.wall);
    clearTimeout(timers.kill);
    plan.signal?.removeEventListener("abort", onCancel);
    if (hostCalls !== undefined && !hostCalls.signal.aborted) hostCalls.abort(runEndedFor(report.outcome));
    settle?.({ ...report, stats: { ...report.stats, engine: "quickjs", wallMs: performance.now() - startedAt } });
  };
  const lost = (outcome: EngineOutcome): void =>
    finish({ outcome, logs: [], logBytes: 0, droppedLogs: 0, stats: { engine: "quickjs", wallMs: 0, cpuMs: 0, hostCalls: 0 } });

  const onCall = (message: SharedCallMessage): void => {
    if (finished || thread === undefined) return;
    modules ??= new RunModules(plan.modules, { ...plan.limits, code: plan.code });
    if (hostCalls === undefined) {
      hostCalls = new AbortController();
      // A call that arrives once the run is stopping gets a signal already aborted.
      if (stopping !== undefined) hostCalls.abort(runEnded(stopping === "wall" ? "WALL_LIMIT" : "CANCELLED"));
    }
    const on = thread;
    // An async call's events go to the worker as they happen, before its reply (same port, in order).
    const events = message.live ? { live: (text: string) => void (finished || on.answer("event", plan.runId, message.callId, text)) } : {};
    void modules.call(message, { signal: hostCalls.signal, deadline }, events).then((text) => {
      if (!finished) on.answer("reply", plan.runId, message.callId, text);
    });
  };

  const checkStuck = (beatAtStop: number): void => {
    if (finished || thread === undefined) return;
    const beat = thread.beat;
    if (beat !== beatAtStop) {
      // A guest on the thread is running and checking interrupts: it ends at its own deadline.
      timers.kill = setTimeout(() => checkStuck(beat), plan.killGraceMs);
      return;
    }
    const detail = "the guest did not yield, so its worker was terminated";
    const reason = stopping ?? "wall";
    lost(reason === "wall" ? { kind: "limit", limit: "wallMs", detail } : { kind: "cancelled", detail: `The run was cancelled; ${detail}` });
    void thread.terminate("a guest on the QuickJS worker did not yield to a stop, so the worker was terminated");
  };

  const stop = (reason: "wall" | "cancel"): void => {
    if (stopping !== undefined || finished) return;
    stopping = reason;
    hostCalls?.abort(runEnded(reason === "wall" ? "WALL_LIMIT" : "CANCELLED"));
    if (thread === undefined) return;
    thread.stop(plan.runId, reason);
    const beat = thread.beat;
    timers.kill = setTimeout(() => checkStuck(beat), plan.killGraceMs);
  };
  const onCancel = (): void => stop("cancel");

  await placement.place((chosen) => {
    thread = chosen;
    deadline = Date.now() + plan.limits.wallMs;
    chosen.start(
      plan.runId,
      {
        code: plan.code,
        filename: plan.filename,
        ...(plan.prelude === undefined ? {} : { prelude: plan.prelude }),
        manifestText: plan.manifestText,
        limits: plan.limits,
        stackBytes: plan.stackBytes,
        ...(plan.moveAfterCpuMs === undefined ? {} : { moveAfterCpuMs: plan.moveAfterCpuMs }),
      },
      {
        onCall,
        onDone: (message) => finish(message.report),
        onLost: (reason) => lost({ kind: "failure", message: `The QuickJS worker stopped unexpectedly (${reason})` }),
      },
    );
  }, plan.signal);
  plan.signal?.addEventListener("abort", onCancel, { once: true });
  timers.wall = setTimeout(() => stop("wall"), plan.limits.wallMs);
  onStart?.({ stop });
  if (plan.signal?.aborted === true) stop("cancel");
  return result;
}
