import type { EngineOutcome, RunReport } from "../host/outcome.js";
import { runEnded, runEndedFor } from "../host/run-ended.js";
import { RunModules } from "../host/run-modules.js";
import { CONTROL_LAYOUT, type DoneMessage, type HostCallMessage, type RunMessage } from "./quickjs-protocol.js";
import type { QuickJsThread, ThreadRunHandlers } from "./quickjs-thread.js";
import type { EngineRunPlan } from "./run-admission.js";

export interface ThreadRunPlan extends EngineRunPlan {
  readonly runId: number;
  /** How long past the wall deadline (or a cancel) a guest may take to notice before its worker is killed. */
  readonly killGraceMs: number;
  /** A worker whose wasm memory grew beyond this is replaced after the run (wasm memory never shrinks). */
  readonly retireAboveBytes: number;
}

export interface ThreadRunResult {
  readonly report: RunReport;
  /** The thread must not serve another run (killed, poisoned or too large). */
  readonly retire: boolean;
}

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: its first use loads node:perf_hooks,
 * 1-2 ms on the path of a one-shot `mcpvm run`, whose main thread uses it nowhere else.
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * Runs one request on a leased worker: serves its host calls, enforces the wall budget and
 * cancellation from this side (abort the host calls' signal, raise the stop flag, and terminate the
 * worker if it has not stopped `killGraceMs` later). Never rejects.
 */
export function runOnThread(thread: QuickJsThread, plan: ThreadRunPlan): Promise<ThreadRunResult> {
  const startedAt = monotonicMs();
  const deadline = Date.now() + plan.limits.wallMs;
  // The run's host modules and their calls' signal are made at its first host call: a run that makes
  // none (most trivial runs) needs neither (as in shared mode, quickjs-shared-run.ts).
  let hostCalls: AbortController | undefined;
  let modules: RunModules | undefined;
  let stopping: "wall" | "cancel" | undefined;
  let wallTimer: NodeJS.Timeout | undefined;
  let killTimer: NodeJS.Timeout | undefined;

  return new Promise<ThreadRunResult>((resolve) => {
    let finished = false;

    const finish = (report: Omit<RunReport, "stats"> & { cpuMs: number; hostCalls: number }, retire: boolean): void => {
      if (finished) return;
      finished = true;
      clearTimeout(wallTimer);
      clearTimeout(killTimer);
      thread.detach(handlers);
      plan.signal?.removeEventListener("abort", onCancel);
      // A run that made no host call handed its signal to nobody: no reason to build (an error with a stack).
      if (hostCalls !== undefined && !hostCalls.signal.aborted) hostCalls.abort(runEndedFor(report.outcome));
      const { cpuMs, hostCalls: calls, ...rest } = report;
      resolve({
        report: {
          ...rest,
          stats: { engine: "quickjs", wallMs: monotonicMs() - startedAt, cpuMs, hostCalls: calls },
        },
        retire,
      });
    };

    const lost = (outcome: EngineOutcome): void =>
      finish({ outcome, logs: [], logBytes: 0, droppedLogs: 0, cpuMs: 0, hostCalls: 0 }, true);

    const onDone = (done: DoneMessage): void => {
      if (done.runId !== plan.runId) return;
      finish(done, done.poisoned || done.wasmMemoryBytes > plan.retireAboveBytes);
    };

    const onCrash = (error?: unknown): void =>
      lost({ kind: "failure", message: `The QuickJS worker stopped unexpectedly (${String(error)})` });

    const onCall = (message: HostCallMessage): void => {
      if (message.runId !== plan.runId || finished) return;
      modules ??= new RunModules(plan.modules, { ...plan.limits, code: plan.code });
      if (hostCalls === undefined) {
        hostCalls = new AbortController();
        // A call that arrives once the run is stopping gets a signal already aborted.
        if (stopping !== undefined) hostCalls.abort(runEnded(stopping === "wall" ? "WALL_LIMIT" : "CANCELLED"));
      }
      // Events go to the worker as they happen, on the same port and so before the reply.
      const events = message.listen
        ? { live: (text: string) => void (finished || thread.reply({ type: "event", runId: plan.runId, callId: message.callId, text })) }
        : {};
      void modules.call(message, { signal: hostCalls.signal, deadline }, events).then((text) => {
        if (!finished) thread.reply({ type: "reply", runId: plan.runId, callId: message.callId, text });
      });
    };

    const stop = (reason: "wall" | "cancel"): void => {
      if (stopping !== undefined || finished) return;
      stopping = reason;
      thread.requestStop(reason === "wall" ? CONTROL_LAYOUT.wall : CONTROL_LAYOUT.cancelled);
      hostCalls?.abort(runEnded(reason === "wall" ? "WALL_LIMIT" : "CANCELLED"));
      killTimer = setTimeout(() => {
        // The guest is inside native code that never reaches an interrupt check: end it the hard way.
        void thread.terminate();
        const detail = "the guest did not yield, so its worker was terminated";
        lost(reason === "wall" ? { kind: "limit", limit: "wallMs", detail } : { kind: "cancelled", detail: `The run was cancelled; ${detail}` });
      }, plan.killGraceMs);
    };

    const onCancel = (): void => stop("cancel");

    const handlers: ThreadRunHandlers = { onDone, onCall, onCrash };
    thread.attach(handlers);
    plan.signal?.addEventListener("abort", onCancel, { once: true });
    wallTimer = setTimeout(() => stop("wall"), plan.limits.wallMs);

    const message: RunMessage = {
      type: "run",
      runId: plan.runId,
      code: plan.code,
      filename: plan.filename,
      ...(plan.prelude === undefined ? {} : { prelude: plan.prelude }),
      manifestText: plan.manifestText,
      limits: plan.limits,
      deadline,
      stackBytes: plan.stackBytes,
    };
    thread.startRun(message);
    if (plan.signal?.aborted === true) stop("cancel");
  });
}
