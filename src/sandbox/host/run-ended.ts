import { McpvmError } from "../../util/errors.js";

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
