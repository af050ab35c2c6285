import { errorMessage } from "../../util/errors.js";
import type { EngineKind, RunResult } from "../types.js";
import { PoolError } from "./quickjs-pool.js";
import { failedBeforeRun } from "./run-admission.js";

/**
 * The runs an engine has in progress, so that dispose() can wait for them to end. A run whose
 * engine code throws (a bug, not a guest error) ends as ENGINE_FAILURE instead of rejecting.
 */
export class EngineRuns {
  private readonly running = new Set<Promise<RunResult>>();

  constructor(private readonly kind: EngineKind) {}

  async track(execute: () => Promise<RunResult>): Promise<RunResult> {
    const run = execute().catch((error: unknown) => failedBeforeRun(this.kind, { code: "ENGINE_FAILURE", message: `The QuickJS engine failed: ${errorMessage(error)}` }));
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  /** Resolves once every run in progress has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }
}

/** A run that found no worker thread: cancelled while it waited, the pool closed, or a thread that could not start. */
export function workerUnavailable(kind: EngineKind, error: unknown): RunResult {
  if (error instanceof PoolError && error.code === "ACQUIRE_ABORTED") return failedBeforeRun(kind, { code: "CANCELLED", message: error.message });
  if (error instanceof PoolError) return failedBeforeRun(kind, { code: "ENGINE_UNAVAILABLE", message: error.message });
  return failedBeforeRun(kind, { code: "ENGINE_FAILURE", message: `A QuickJS worker could not start: ${errorMessage(error)}` });
}
