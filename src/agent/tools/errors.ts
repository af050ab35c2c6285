import type { McpvmHost } from "../../host/index.js";
import type { McpService } from "../../mcp/service/index.js";
import { isMcpvmError, McpvmError } from "../../util/errors.js";

export class AgentToolError extends McpvmError<"MODULE_UNKNOWN" | "INVALID_INPUT" | "NAME_REQUIRED" | "PERSON_UNAVAILABLE" | "DECLINED" | "MCP_OFF"> {}

/** The MCP service, or an error that tells the model how to get it: it cannot enable the plugin by itself, the person approves. */
export async function requireMcpForModel(host: McpvmHost): Promise<McpService> {
  try {
    return await host.requireMcp();
  } catch (error) {
    if (!isMcpvmError(error) || error.code !== "MCP_PLUGIN_NOT_ENABLED") throw error;
    throw new AgentToolError("MCP_OFF", `MCP is off (the mcp plugin is not enabled). manage {action: "enable", plugin: "mcp"} asks the person to enable it.`, { cause: error });
  }
}
