import type { PreemptionMeter } from "./preemption-meter.js";
import type { HostCallEvents, HostCallRequest } from "../host/host-call.js";
import type { EngineOutcome, RunReport } from "../host/outcome.js";
import type { RunEndedCode } from "../host/run-ended.js";
import type { RunCallContext } from "../host/run-modules.js";
import type { RunLimits } from "../types.js";
import type { TimeSlices } from "./quickjs-yield.js";
import type { EngineRunPlan } from "./run-admission.js";

/**
 * What an asyncify run (quickjs-inline-run.ts) is given and gives back, on the caller's thread and
 * inside the worker engine's shared threads.
 */

export type InlineRunPlan = EngineRunPlan;

export interface InlineRunResult {
  readonly report: RunReport;
  /** The instance must not serve another run (a trap, a stop mid-flight, or grown too large is the caller's call). */
  readonly poisoned: boolean;
  /** A trap or host exception unwound through QuickJS: not even a sandbox image makes the instance safe again. */
  readonly trapped: boolean;
}

/** A run in progress, as its engine sees it: dispose ends it like a cancel. */
export interface InlineRunHandle {
  stop(reason: "wall" | "cancel"): void;
}

/** What an asyncify run needs of its plan (the host modules stay with whoever answers its calls). */
export interface AsyncifyRunPlan {
  readonly code: string;
  readonly filename: string;
  readonly prelude?: string;
  readonly manifestText: string;
  readonly limits: RunLimits;
  readonly signal?: AbortSignal;
  readonly stackBytes: number;
  /** Once the guest has computed this long with no host call and no log, end it as `moved` (shared mode; see EngineOutcome). */
  readonly moveAfterCpuMs?: number;
}

/** Where a run's host calls go: its RunModules on this thread, or a port to the main thread (shared worker). */
export interface HostCallPort {
  call(request: HostCallRequest, context: RunCallContext, events?: HostCallEvents): Promise<string>;
  /**
   * A synchronous call (the guest waits for it) that may be answered before this returns: its reply
   * as text, and the guest goes on without suspending; or a promise, as `call`'s. A shared worker's
   * run alone on its thread sleeps for the reply (see SHARED_CONTROL); absent: `call`.
   */
  callWaiting?(request: HostCallRequest, context: RunCallContext): string | Promise<string>;
}

/**
 * What runAsyncify needs at run time, passed in because the worker engine starts it from its source
 * text inside its threads (quickjs-shared-worker.ts), where nothing can be imported.
 */
export interface AsyncifyRunParts {
  readonly engine: "quickjs" | "quickjs-inline";
  readonly calls: HostCallPort;
  readonly logEntryBytes: (level: string, message: string) => number;
  /** The abort reason of the host calls' signal. */
  readonly runEnded: (code: RunEndedCode) => unknown;
  readonly runEndedFor: (outcome: EngineOutcome) => unknown;
  /**
   * A stop raised by another thread (shared memory), read at every interrupt check: a message cannot
   * reach a worker whose thread is busy running this guest.
   */
  readonly externalStop?: () => "wall" | "cancel" | undefined;
  /** Called at every interrupt check (the worker's sign of life, see quickjs-shared-thread.ts). */
  readonly beat?: () => void;
  /** The guest's compute cut into slices, between which this thread's event loop runs (see quickjs-yield.ts). */
  readonly slices?: TimeSlices;
  /** A new meter of the time this thread's core was taken from a run (preemption-meter.ts). */
  readonly preemptionMeter: () => PreemptionMeter;
}
