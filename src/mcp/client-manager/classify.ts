import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { errorMessage, isMcpvmError, type McpvmError } from "../../util/errors.js";
import { diedDuringCallError, type StartupDiagnostics } from "./connect-errors.js";
import type { TimeoutSource } from "./call-budget.js";
import { McpCancelledError, McpRequestError, McpTimeoutError, McpToolError, McpTransportError } from "./errors.js";

export interface CallFailureContext {
  readonly server: string;
  /** The tool of a tools/call; for any other request, the method (see `method`). */
  readonly tool: string;
  /** Set for a request that is not tools/call (resources/read, prompts/get, ...). */
  readonly method?: string;
  /** What the request was about (a URI, a prompt name), shown in messages; already redacted by the caller. */
  readonly target?: string;
  readonly timeoutMs: number;
  /** Which limit timeoutMs was; the message then names what to raise. */
  readonly timeoutSource?: TimeoutSource;
  /** The caller's signal fired (the SDK reports an abort with the same code as a timeout). */
  readonly cancelled: boolean;
  readonly redact: (text: string) => string;
  /** How the server's process ended and its stderr tail, for a call its end cut short. */
  readonly diagnostics?: () => StartupDiagnostics;
}

function describe(ctx: CallFailureContext): { where: string; data: Record<string, unknown> & { server: string } } {
  if (ctx.method === undefined) return { where: `MCP tool ${ctx.server}.${ctx.tool}`, data: { server: ctx.server, tool: ctx.tool } };
  const target = ctx.target === undefined ? "" : ` ${JSON.stringify(ctx.target)}`;
  return { where: `MCP server ${ctx.server} (${ctx.method}${target})`, data: { server: ctx.server, method: ctx.method } };
}

/** What to raise for a slower server: its callTimeoutMs, or the caller's budget (a run's --timeout). */
function timeoutNext(ctx: CallFailureContext): string {
  if (ctx.timeoutSource === "server") {
    return ` If the tool needs longer, raise the server's callTimeoutMs (mcpServers.${ctx.server}.callTimeoutMs in config.json, in ms, at most 3600000) and, for a script, its wall budget (mcpvm run --timeout).`;
  }
  if (ctx.timeoutSource === "caller") return " That was what was left of the caller's time budget: give the run more (mcpvm run --timeout 2m).";
  return "";
}

/** Maps whatever a request threw to the typed error the guest (or the gateway) sees. */
export function classifyCallFailure(error: unknown, ctx: CallFailureContext): McpvmError {
  const { where, data } = describe(ctx);
  if (ctx.cancelled) {
    return new McpCancelledError("MCP_CALL_CANCELLED", `${where} was cancelled by the caller before it answered.`, { data });
  }
  if (isMcpvmError(error)) return error;
  const detail = ctx.redact(errorMessage(error));
  if (SdkError.isInstance(error)) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return new McpTimeoutError("MCP_CALL_TIMEOUT", `${where} did not answer within ${ctx.timeoutMs} ms; the request was cancelled.${timeoutNext(ctx)}`, {
          data: { ...data, timeoutMs: ctx.timeoutMs, ...(ctx.timeoutSource === undefined ? {} : { timeoutSource: ctx.timeoutSource }) },
        });
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.SendFailed:
        if (ctx.diagnostics !== undefined) return diedDuringCallError(ctx.diagnostics(), where, data);
        return new McpTransportError(
          "MCP_TRANSPORT_CLOSED",
          `${where} failed: the connection to server ${ctx.server} closed (${detail}). The next call restarts the server.`,
          { data },
        );
      // Refused by the SDK before anything was sent (a method the session's protocol version lacks, a
      // capability the server did not declare): nothing is wrong with the connection, which stays up.
      case SdkErrorCode.MethodNotSupportedByProtocolVersion:
      case SdkErrorCode.CapabilityNotSupported:
        return new McpRequestError("MCP_REQUEST_UNSUPPORTED", `${where} was not sent: ${detail}`, { data: { ...data, sdkCode: error.code } });
      case SdkErrorCode.InvalidResult:
        return ctx.method === undefined
          ? new McpToolError("MCP_TOOL_INVALID_RESULT", `${where} returned a result that does not match its schema: ${detail}`, { data })
          : new McpRequestError("MCP_REQUEST_INVALID_RESULT", `${where} returned a result that does not match the protocol's schema: ${detail}`, { data });
      default:
        return new McpTransportError("MCP_TRANSPORT_ERROR", `${where} failed: ${detail}`, { data: { ...data, sdkCode: error.code } });
    }
  }
  if (ProtocolError.isInstance(error)) {
    const rejected = { data: { ...data, rpcCode: error.code } };
    return ctx.method === undefined
      ? new McpToolError("MCP_TOOL_REJECTED", `${where} was rejected by the server: ${detail}`, rejected)
      : new McpRequestError("MCP_REQUEST_REJECTED", `${where} was rejected by the server: ${detail}`, rejected);
  }
  return new McpTransportError("MCP_TRANSPORT_ERROR", `${where} failed: ${detail}`, { data });
}

