import { McpvmError } from "../../util/errors.js";

export type McpOAuthErrorCode =
  /** The server needs a login and nothing here may open a browser: the message says which command to run. */
  | "MCP_LOGIN_REQUIRED"
  /** Discovery, registration, the authorization response or the token exchange failed (what, and where, is in the message). */
  | "MCP_OAUTH_FAILED"
  /** The redirect carried another `state` than the one sent: a stale or forged redirect; nothing was stored. */
  | "MCP_OAUTH_STATE_MISMATCH"
  /** An authorization endpoint, or a redirect pasted back, that mcpvm refuses to use (plain http off loopback, another host). */
  | "MCP_OAUTH_INSECURE"
  /** The server kept asking for authorization (403 insufficient_scope after every login): stopped instead of looping. */
  | "MCP_OAUTH_LOOP"
  /** Nobody came back to the redirect listener in time. */
  | "MCP_OAUTH_TIMEOUT"
  /** The person (or the face closing) stopped the wait for the redirect; nothing was stored. */
  | "MCP_OAUTH_CANCELLED";

/** Every OAuth problem of one server; the message names the server and says what to do. */
export class McpOAuthError extends McpvmError<McpOAuthErrorCode> {
  override readonly name = "McpOAuthError";
}

export function loginCommand(server: string): string {
  return `mcpvm mcp login ${server}`;
}

export function loginRequired(server: string, why?: string): McpOAuthError {
  return new McpOAuthError("MCP_LOGIN_REQUIRED", `server ${server} needs login${why === undefined ? "" : ` (${why})`}: run \`${loginCommand(server)}\``, {
    data: { server, command: loginCommand(server) },
  });
}
