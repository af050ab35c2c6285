import type { CallToolResult, LoggingLevel, Progress, Tool } from "@modelcontextprotocol/client";
import { ATTR } from "../../telemetry/names.js";
import type { SpanScope } from "../../telemetry/telemetry.js";
import { isMcpvmError } from "../../util/errors.js";
import { toolErrorText } from "../results/index.js";
import type { McpServerLaunch } from "../types.js";
import { callTimeout, deadlineError, type CallerOptions } from "./call-budget.js";
import type { InFlightCall } from "./call-origin.js";
import { runCall, type CallRunnerDeps } from "./call-runner.js";
import type { Connection } from "./connection.js";
import { McpToolError } from "./errors.js";
import type { ClientManagerEvent } from "./events.js";
import { hasTool, toolNotFound } from "./manager-errors.js";
import type { ServerSlot } from "./slot.js";

/** Options of a tools/call or other request beyond the caller's budget. */
export interface RequestExtras {
  /** notifications/progress of this request, flood-capped (limits.maxNotificationsPerSecond). */
  readonly onProgress?: (progress: Progress) => void;
}

/** What a tools/call needs of the ClientManager. */
export interface ToolCallDeps {
  readonly slot: (name: string) => ServerSlot;
  readonly ensureConnected: (slot: ServerSlot, caller: CallerOptions, tool: string | undefined) => Promise<Connection>;
  readonly runner: CallRunnerDeps;
  readonly defaultCallTimeoutMs: number;
  readonly now: () => number;
  readonly emit: (event: ClientManagerEvent) => void;
  /** The log level the call's origin asked for (ServerRequestHooks.logLevelOf). */
  readonly logLevelOf: (origin: unknown) => LoggingLevel | undefined;
}

/** CallOptions.logLevel when there is one (exactOptionalPropertyTypes: no key rather than undefined). */
export function logLevelOption(level: LoggingLevel | undefined): { logLevel?: LoggingLevel } {
  return level === undefined ? {} : { logLevel: level };
}

export interface ToolCallRequest {
  readonly name: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly caller: CallerOptions;
  readonly options: { readonly keepErrorResults?: boolean } & RequestExtras;
}

/**
 * One tools/call: the caller's deadline, a connected server that lists the tool (after a relisting
 * in progress), the call within its timeout through runCall, `isError` results thrown unless
 * `keepErrorResults`, and one `call` event per call that was sent, for the activity log
 * (listeners mask the arguments).
 */
export async function sendToolCall(deps: ToolCallDeps, request: ToolCallRequest, scope: SpanScope): Promise<CallToolResult> {
  const { name, tool, args, caller, options } = request;
  const slot = deps.slot(name);
  if (caller.deadline !== undefined && caller.deadline <= deps.now()) throw deadlineError(name, tool, "before the call was sent");
  const connection = await deps.ensureConnected(slot, caller, tool);
  if (!hasTool(slot.tools, tool) && slot.relisting !== undefined) await slot.relisting;
  if (!hasTool(slot.tools, tool)) throw toolNotFound(slot.name, tool, slot.tools ?? []);
  if (taskOnly(slot.tools, tool)) throw taskRequired(name, tool);
  const launch = slot.launch as McpServerLaunch;
  scope.set({ [ATTR.upstreamTransport]: launch.transport });
  const { ms: timeoutMs, source: timeoutSource } = callTimeout(launch.limits.callTimeoutMs, deps.defaultCallTimeoutMs, caller.deadline, deps.now());
  if (timeoutMs <= 0) throw deadlineError(name, tool, "before the call was sent");
  const call: InFlightCall = { server: name, method: "tools/call", origin: caller.origin };
  const extras = options.onProgress === undefined ? {} : { onProgress: options.onProgress };
  const started = performance.now();
  let outcome: "ok" | "isError" | "failed" = "failed";
  let errorCode: string | undefined;
  try {
    const result = await runCall(
      deps.runner,
      slot,
      connection,
      { call, detail: { tool }, ...extras },
      (onProgress) =>
        connection.callTool(tool, args, {
          timeoutMs,
          timeoutSource,
          ...(caller.signal === undefined ? {} : { signal: caller.signal }),
          ...(onProgress === undefined ? {} : { onProgress }),
          ...logLevelOption(deps.logLevelOf(caller.origin)),
        }),
      (sent) => (sent.isError === true ? "isError" : "ok"),
    );
    outcome = result.isError === true ? "isError" : "ok";
    if (result.isError === true) {
      scope.outcome("tool_error");
      if (options.keepErrorResults !== true) throw new McpToolError("MCP_TOOL_ERROR", `MCP tool ${name}.${tool} failed: ${slot.redact(toolErrorText(result))}`, { data: { server: name, tool } });
    }
    return result;
  } catch (error) {
    errorCode = isMcpvmError(error) ? error.code : "INTERNAL";
    throw error;
  } finally {
    deps.emit({ type: "call", server: name, tool, args, ms: Math.round(performance.now() - started), outcome, ...(errorCode === undefined ? {} : { errorCode }) });
  }
}

/**
 * A tool whose definition says it runs only as a task (`execution.taskSupport: "required"`, the
 * 2025-11-25 tasks feature, which the MCP SDK mcpvm is built on no longer runs): a plain call can
 * only be refused by the server, so it is refused here, before anything is sent, with the reason.
 */
function taskOnly(tools: readonly Tool[] | undefined, tool: string): boolean {
  const execution = tools?.find((t) => t.name === tool)?.execution as { taskSupport?: unknown } | undefined;
  return execution?.taskSupport === "required";
}

function taskRequired(server: string, tool: string): McpToolError {
  return new McpToolError(
    "MCP_TOOL_REJECTED",
    `MCP tool ${server}.${tool} runs only as an MCP task (its execution.taskSupport is "required"), which mcpvm does not run: nothing was sent to the server. Use another of its tools, or call it from a client that runs MCP tasks.`,
    { data: { server, tool } },
  );
}
