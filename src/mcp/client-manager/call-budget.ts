import { McpCancelledError, McpTimeoutError } from "./errors.js";
import { startTimeout, untilAborted } from "./abort.js";

/** What a caller (a guest run, a gateway request) gives every manager call. */
export interface CallerOptions {
  /** Cancels the wait and the request (the run ended). */
  readonly signal?: AbortSignal;
  /** Epoch ms on the manager's clock after which the answer is no longer wanted (the guest's wall budget). */
  readonly deadline?: number;
  /**
   * Who is calling (a gateway session, a guest run): opaque to the manager, handed to the
   * server-request hooks so an elicitation or sampling request reaches the caller it belongs to.
   */
  readonly origin?: unknown;
}

/** min(launch call timeout, manager default, time left before the caller's deadline). */
export function callTimeoutMs(launchMs: number, defaultMs: number, deadline: number | undefined, now: number): number {
  return callTimeout(launchMs, defaultMs, deadline, now).ms;
}

/**
 * Which limit a call's timeout comes from, so a timeout can name the setting to raise: the server's
 * callTimeoutMs ("server") or what was left of the caller's budget, a run's --timeout ("caller").
 */
export type TimeoutSource = "server" | "caller";

export function callTimeout(launchMs: number, defaultMs: number, deadline: number | undefined, now: number): { ms: number; source: TimeoutSource } {
  const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - now;
  const own = Math.min(launchMs, defaultMs);
  return left < own ? { ms: left, source: "caller" } : { ms: own, source: "server" };
}

export function deadlineError(server: string, tool: string | undefined, what: string): McpTimeoutError {
  const where = tool === undefined ? `MCP server ${server}` : `MCP tool ${server}.${tool}`;
  return new McpTimeoutError("MCP_CALL_TIMEOUT", `${where}: the caller's time budget ran out ${what}.`, {
    data: { server, ...(tool === undefined ? {} : { tool }), timeoutSource: "caller" },
  });
}

/**
 * Waits for a connect shared with other callers, giving up when this caller's deadline passes or
 * its signal fires; the connect itself goes on for the others.
 */
export async function waitWithinBudget<T>(promise: Promise<T>, caller: CallerOptions, now: number, server: string, tool: string | undefined): Promise<T> {
  if (caller.deadline === undefined && caller.signal === undefined) return promise;
  if (caller.deadline === undefined) {
    const signal = caller.signal as AbortSignal;
    return untilAborted(promise, signal).catch((error: unknown) => {
      if (signal.aborted) throw cancelledWhileStarting(server, tool);
      throw error;
    });
  }
  const scope = startTimeout(caller.deadline - now, caller.signal);
  try {
    return await untilAborted(promise, scope.signal);
  } catch (error) {
    if (scope.timedOut()) throw deadlineError(server, tool, "while the server was starting");
    if (caller.signal?.aborted === true) throw cancelledWhileStarting(server, tool);
    throw error;
  } finally {
    scope.dispose();
  }
}

function cancelledWhileStarting(server: string, tool: string | undefined): McpCancelledError {
  const where = tool === undefined ? `MCP server ${server}` : `MCP tool ${server}.${tool}`;
  return new McpCancelledError("MCP_CALL_CANCELLED", `${where} was cancelled by the caller while the server was starting.`, {
    data: { server, ...(tool === undefined ? {} : { tool }) },
  });
}
