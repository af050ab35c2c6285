import { McpvmError } from "../../util/errors.js";
import type { EngineOutcome } from "./outcome.js";

export type RunEndedCode = "RUN_COMPLETED" | "WALL_LIMIT" | "CANCELLED" | "RUN_FAILED";

/**
 * The reason a run's host-call signal (HostCallContext.signal) was aborted, so a host function can
 * tell a wall-limit hit from a cancellation or an ordinary end of the run by `code`.
 */
export class RunEndedError extends McpvmError<RunEndedCode> {}

export function runEnded(code: RunEndedCode): RunEndedError {
  const messages: Record<RunEndedCode, string> = {
    RUN_COMPLETED: "The sandbox run has finished; its host calls are no longer awaited",
    WALL_LIMIT: "The sandbox run reached its wall-clock limit",
    CANCELLED: "The sandbox run was cancelled",
    RUN_FAILED: "The sandbox run failed",
  };
  return new RunEndedError(code, messages[code]);
}

/** Why a run's host calls are being abandoned, read from how the run ended. */
export function runEndedFor(outcome: EngineOutcome): RunEndedError {
  if (outcome.kind === "limit" && outcome.limit === "wallMs") return runEnded("WALL_LIMIT");
  return runEnded(outcome.kind === "cancelled" ? "CANCELLED" : "RUN_COMPLETED");
}
