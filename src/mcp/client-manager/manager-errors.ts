import type { Tool } from "@modelcontextprotocol/client";
import { errorMessage, isMcpvmError, type McpvmError } from "../../util/errors.js";
import { McpConnectError, McpRequestError, McpServerUnavailable, McpToolError } from "./errors.js";

/** The errors the manager itself raises, worded so a user knows what to do. */

export function unknownServerError(name: string, known: readonly string[]): McpServerUnavailable {
  return new McpServerUnavailable("MCP_UNKNOWN_SERVER", `No MCP server named "${name}" is configured (configured: ${known.join(", ") || "none"}).`, {
    data: { server: name },
  });
}

/** What a dead connection's error promises (diedError); past the limit that restart is not made. */
const RESTART_PROMISE = " The next call restarts it.";

export function reconnectLimitError(server: string, failures: number, maxReconnects: number, last: McpvmError | undefined): McpServerUnavailable {
  return new McpServerUnavailable(
    "MCP_RECONNECT_LIMIT",
    `MCP server ${server} failed ${failures} times in a row in this session and is not restarted again (limit: ${maxReconnects} reconnects); ` +
      `restart mcpvm (or the gateway) once it is fixed. Last error: ${last?.message.replace(RESTART_PROMISE, "") ?? "unknown"}`,
    { data: { server, failures } },
  );
}

export function capacityError(server: string, maxLiveConnections: number): McpServerUnavailable {
  return new McpServerUnavailable(
    "MCP_CAPACITY",
    `MCP server ${server} cannot start: ${maxLiveConnections} servers are running and every one has a call in flight or a gateway client's resource subscription. ` +
      `Retry when a call finishes, or raise maxLiveConnections.`,
    { data: { server, maxLiveConnections } },
  );
}

export function closedError(server: string, managerClosed: boolean): McpServerUnavailable {
  return managerClosed
    ? new McpServerUnavailable("MCP_MANAGER_CLOSED", `MCP server ${server} is unavailable: the MCP client manager was shut down.`, { data: { server } })
    : new McpServerUnavailable("MCP_SERVER_CLOSED", `MCP server ${server} was closed while it was starting.`, { data: { server } });
}

/** A call that took the server before config.json removed or changed it, and had not connected yet. */
export function retiredError(server: string): McpServerUnavailable {
  return new McpServerUnavailable("MCP_SERVER_CLOSED", `MCP server ${server} was removed or changed in config.json while this call was starting; call it again (a changed server is started from its new definition).`, {
    data: { server },
  });
}

export function hasTool(tools: readonly Tool[] | undefined, name: string): boolean {
  return tools?.some((tool) => tool.name === name) === true;
}

export function toolNotFound(server: string, tool: string, tools: readonly Tool[]): McpToolError {
  const names = tools.map((t) => t.name);
  const shown = names.length > 20 ? `${names.slice(0, 20).join(", ")}, …` : names.join(", ");
  return new McpToolError("MCP_TOOL_NOT_FOUND", `MCP server ${server} has no tool "${tool}" (tools: ${shown || "none"}).`, { data: { server, tool } });
}

const FOREIGN_VERBS = {
  MCP_LAUNCH_FAILED: "resolve the launch of",
  MCP_CONNECT_REFUSED: "get approval to start",
  MCP_CONNECT_FAILED: "connect to",
} as const;

/** Hooks and resolvers may throw their own McpvmError (approval denied, missing ${VAR}); others are wrapped. */
export function foreignError(server: string, redact: (text: string) => string, error: unknown, code: keyof typeof FOREIGN_VERBS): McpvmError {
  if (isMcpvmError(error)) return error;
  return new McpConnectError(code, `Could not ${FOREIGN_VERBS[code]} MCP server ${server}: ${redact(errorMessage(error))}`, { data: { server } });
}

const CAPABILITY_OF: Readonly<Record<string, string>> = {
  "resources/read": "resources",
  "resources/subscribe": "resources.subscribe",
  "resources/unsubscribe": "resources.subscribe",
  "prompts/get": "prompts",
  "completion/complete": "completions",
  "logging/setLevel": "logging",
};

export function unsupportedRequestError(server: string, method: string, era: "legacy" | "modern" = "legacy"): McpRequestError {
  const capability = CAPABILITY_OF[method] ?? method;
  const why =
    era === "modern" && method === "logging/setLevel"
      ? "it speaks MCP 2026-07-28, which has no logging/setLevel (a log level is sent with each request instead)"
      : `it did not declare the "${capability}" capability`;
  return new McpRequestError("MCP_REQUEST_UNSUPPORTED", `MCP server ${server} does not support ${method}: ${why}.`, {
    data: { server, method },
  });
}
