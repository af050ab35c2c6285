import type { Logger } from "pino";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { isMcpvmError } from "../util/errors.js";

/** Who asked: the gateway's request id, the client session and the JSON-RPC id. */
export interface RequestInfo {
  readonly requestId: string;
  readonly session: string;
  readonly rpcId: string | number;
  /** The client (token name) the call is attributed to. */
  readonly client?: string;
}

export type RequestStatus = "ok" | "tool_error" | "error";

/**
 * One line per tools/call: ids, session, server, tool, duration and status. Argument values are
 * never logged (only their top-level keys), and the logger's stream redacts secrets by value.
 */
export function logToolCall(
  logger: Logger,
  info: RequestInfo,
  call: { tool: string; server: string | undefined; argKeys: readonly string[]; durationMs: number; result?: CallToolResult; error?: unknown },
): void {
  const status: RequestStatus = call.error !== undefined ? "error" : call.result?.isError === true ? "tool_error" : "ok";
  const record = {
    requestId: info.requestId,
    session: info.session,
    ...(info.client === undefined ? {} : { client: info.client }),
    rpcId: info.rpcId,
    method: "tools/call",
    tool: call.tool,
    ...(call.server === undefined ? {} : { server: call.server }),
    argKeys: call.argKeys,
    durationMs: Math.round(call.durationMs * 100) / 100,
    status,
    ...(call.error === undefined ? {} : { code: isMcpvmError(call.error) ? call.error.code : "INTERNAL" }),
  };
  if (status === "error") logger.warn(record, `tools/call ${call.tool} failed`);
  else logger.info(record, `tools/call ${call.tool} ${status}`);
}
