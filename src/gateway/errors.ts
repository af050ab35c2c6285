import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { McpvmError } from "../util/errors.js";

export type GatewayErrorCode =
  /** A toolset name that does not exist. */
  | "GATEWAY_TOOLSET_UNKNOWN"
  /** Deleting a toolset that a client token is bound to (`gateway token create --toolset`). */
  | "GATEWAY_TOOLSET_IN_USE"
  /** A toolset definition that cannot be saved (bad name, empty, malformed tool reference). */
  | "GATEWAY_TOOLSET_INVALID"
  /** A direct tool name the gateway does not expose (anymore). */
  | "GATEWAY_TOOL_UNKNOWN"
  /** Arguments of a gateway tool that do not match its input schema. */
  | "GATEWAY_INVALID_ARGUMENTS"
  /** `--http` address that cannot be parsed. */
  | "GATEWAY_BAD_ADDRESS"
  /** Binding a non-loopback address without a bearer token. */
  | "GATEWAY_TOKEN_REQUIRED"
  /** A token (flag, file, env, home file) that is too short, unreadable or not safely yours. */
  | "GATEWAY_TOKEN_INVALID"
  /** --token, --token-file and --no-auth given together. */
  | "GATEWAY_TOKEN_CONFLICT"
  /** config.json `gateway` section is invalid. */
  | "GATEWAY_CONFIG_INVALID"
  /** A client token request that cannot be honoured (bad name, bad --rate, unknown toolset or server). */
  | "GATEWAY_CLIENT_INVALID"
  /** `gateway token create` for a name that already has a token. */
  | "GATEWAY_CLIENT_EXISTS"
  /** `gateway token revoke` of a name without a token. */
  | "GATEWAY_CLIENT_UNKNOWN"
  /** A tool outside what the calling client's token allows. */
  | "GATEWAY_CLIENT_FORBIDDEN"
  /** `--expose <server>` names no configured, enabled server. */
  | "GATEWAY_EXPOSE_UNKNOWN"
  /** gateway.oauth: the identity provider's metadata or key set cannot be read (down, wrong issuer, not https). */
  | "GATEWAY_OAUTH_UNAVAILABLE";

export class GatewayError extends McpvmError<GatewayErrorCode> {
  override readonly name = "GatewayError";
}

/**
 * A tools/call of a tool the gateway does not have, as the MCP spec asks (server/tools, "Error
 * Handling": unknown tools are a protocol error, -32602): a JSON-RPC error, not an `isError`
 * result, so a client can tell "no such tool" from a tool that ran and failed. `data.code` keeps
 * the gateway's code for clients and logs that match on it.
 */
export function unknownToolError(tool: string, message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, { code: "GATEWAY_TOOL_UNKNOWN", tool });
}
