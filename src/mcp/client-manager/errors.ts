import { McpvmError } from "../../util/errors.js";

/**
 * Errors of MCP calls. The class name becomes the guest Error's `name` (McpToolError,
 * McpTimeoutError, ...), so guest code can branch on it; `code` says which case within a class.
 * Every message names the server (and the tool, when there is one) and is already redacted.
 */

export interface McpErrorData extends Record<string, unknown> {
  readonly server: string;
  readonly tool?: string;
  /** The MCP method of a non-tool request (resources/read, prompts/get, ...). */
  readonly method?: string;
}

export type McpToolErrorCode =
  /** The tool ran and reported failure (`isError: true`). */
  | "MCP_TOOL_ERROR"
  /** The server answered the request with a JSON-RPC error (unknown tool, invalid params, ...). */
  | "MCP_TOOL_REJECTED"
  /** The tool is not in the list this manager exposes (never listed, or filtered by the trust layer). */
  | "MCP_TOOL_NOT_FOUND"
  /** The result did not match the tool's outputSchema. */
  | "MCP_TOOL_INVALID_RESULT";

export class McpToolError extends McpvmError<McpToolErrorCode> {}

export type McpRequestErrorCode =
  /** The server answered a non-tool request (resources/read, prompts/get, ...) with a JSON-RPC error. */
  | "MCP_REQUEST_REJECTED"
  /** The server did not declare the capability the request needs (no resources, no prompts, ...). */
  | "MCP_REQUEST_UNSUPPORTED"
  /** The server's answer did not match the method's result schema. */
  | "MCP_REQUEST_INVALID_RESULT";

/** A client→server request other than tools/call failed at the protocol level; `data.rpcCode` keeps the JSON-RPC code. */
export class McpRequestError extends McpvmError<McpRequestErrorCode> {}

export type McpTimeoutErrorCode = "MCP_CALL_TIMEOUT";
export class McpTimeoutError extends McpvmError<McpTimeoutErrorCode> {}

export type McpCancelledErrorCode = "MCP_CALL_CANCELLED";
/** The caller's own AbortSignal fired (run cancelled), as opposed to a timeout. */
export class McpCancelledError extends McpvmError<McpCancelledErrorCode> {}

export type McpTransportErrorCode =
  /** The connection closed (the process exited, the HTTP session ended) while a call was in flight. */
  | "MCP_TRANSPORT_CLOSED"
  | "MCP_TRANSPORT_ERROR";
export class McpTransportError extends McpvmError<McpTransportErrorCode> {}

/** A transport failure ends the connection; tool-level failures and timeouts do not. */
export function isConnectionFatal(error: McpvmError): boolean {
  return error instanceof McpTransportError;
}

export type McpConnectErrorCode =
  /** Spawn, initialize and tools/list did not finish within the connect timeout; the process was killed. */
  | "MCP_CONNECT_TIMEOUT"
  /** The command could not be started (not found, not executable). */
  | "MCP_SPAWN_FAILED"
  /** The server exited, closed the connection or answered with an error during start-up. */
  | "MCP_CONNECT_FAILED"
  /** An http/sse server answered 401 to a configured token (servers without one log in through src/mcp/oauth instead). */
  | "MCP_CONNECT_UNAUTHORIZED"
  /** The launch resolver failed with an error that is not an McpvmError. */
  | "MCP_LAUNCH_FAILED"
  /** The beforeConnect hook refused with an error that is not an McpvmError. */
  | "MCP_CONNECT_REFUSED";
export class McpConnectError extends McpvmError<McpConnectErrorCode> {}

export type McpServerUnavailableCode =
  | "MCP_UNKNOWN_SERVER"
  /** The server failed more often than the reconnect limit allows in this session. */
  | "MCP_RECONNECT_LIMIT"
  /** The live-connection cap is reached and every live server has a call in flight. */
  | "MCP_CAPACITY"
  /** close(name) ran while this server was starting. */
  | "MCP_SERVER_CLOSED"
  /** closeAll() ran: the manager accepts no more work. */
  | "MCP_MANAGER_CLOSED";

// The name is the brief's guest-visible name, hence no "Error" suffix.
export class McpServerUnavailable extends McpvmError<McpServerUnavailableCode> {}

export type McpClientErrorCode =
  | McpToolErrorCode
  | McpRequestErrorCode
  | McpTimeoutErrorCode
  | McpCancelledErrorCode
  | McpTransportErrorCode
  | McpConnectErrorCode
  | McpServerUnavailableCode;
