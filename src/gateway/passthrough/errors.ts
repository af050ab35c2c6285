import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { errorMessage, isMcpvmError } from "../../util/errors.js";

/** What the gateway's client gets when a passed-through request fails: the upstream's JSON-RPC code when there is one. */
export function toProtocolError(error: unknown, redact: (text: string) => string): ProtocolError {
  if (ProtocolError.isInstance(error)) return error;
  const message = redact(errorMessage(error));
  if (!isMcpvmError(error)) return new ProtocolError(ProtocolErrorCode.InternalError, message);
  const data = error.data as { rpcCode?: unknown } | undefined;
  if (error.code === "MCP_REQUEST_UNSUPPORTED") return new ProtocolError(ProtocolErrorCode.MethodNotFound, message, { code: error.code });
  if (typeof data?.rpcCode === "number") return new ProtocolError(data.rpcCode, message, { code: error.code });
  return new ProtocolError(ProtocolErrorCode.InternalError, message, { code: error.code });
}

export function resourceNotFound(uri: string, why: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource not found: ${uri} (${why}).`, { uri });
}

export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

export function resourceTooLarge(uri: string, server: string, bytes: number, limit: number): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `Resource ${uri} of ${server} is ${bytes} bytes, over its maxResponseBytes (${limit}); raise maxResponseBytes for server "${server}" in config.json to pass it through.`,
    { uri, bytes, limit },
  );
}
