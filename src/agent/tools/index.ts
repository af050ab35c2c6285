import type { ToolSet } from "ai";
import { executeJavascriptTool } from "./execute-javascript.js";
import { manageTool } from "./manage.js";
import { moduleInfoTool } from "./module-info.js";
import type { AgentToolContext } from "./types.js";

export type { AgentToolContext, PersonInteraction } from "./types.js";
export { runOutput, executeJavascriptInput } from "./execute-javascript.js";
export { AgentToolError, requireMcpForModel } from "./errors.js";
export { compactDeclarations, mcpModuleInfo, SIGNATURES_MAX_CHARS, moduleInfoInput } from "./module-info.js";
export { moduleSummaries, connectedModuleSummary, type ModuleSummary } from "./module-summaries.js";
export { searchToolsResults, searchAnswer, SEARCH_DEFAULT_LIMIT } from "./search.js";
export { sweepCatalogs, type CatalogSweep } from "./catalogs.js";
export { entryForModel, listMcpServers, mcpServerInfo } from "./mcp-servers.js";
export { ensureApprovedByPerson } from "./manage-mcp.js";
export { pluginApprovalText } from "./manage-plugin.js";
export { manageInput } from "./manage.js";
export { forModel, failure, guardedTool, MAX_TOOL_OUTPUT_CHARS } from "./output.js";
export { moduleName, mcpServerOf } from "./module-names.js";

/**
 * The model's whole tool surface, sent with every step: run code, read how to call a module (or
 * search for a function), manage servers and plugins. Three tools, because each definition costs
 * tokens on every step (issue 15); MCP features that need the mcp plugin answer with how to enable it.
 */
export const AGENT_TOOL_NAMES = ["execute_javascript", "module_info", "manage"] as const;

export function buildAgentTools(context: AgentToolContext): { tools: ToolSet; activeToolNames(): Promise<string[]> } {
  const tools: ToolSet = {
    execute_javascript: executeJavascriptTool(context),
    module_info: moduleInfoTool(context),
    manage: manageTool(context),
  };
  return {
    tools,
    activeToolNames: async () => {
      // Loading is what creates the MCP service after a reload (e.g. the model enabled the plugin).
      await context.host.hostModules();
      return [...AGENT_TOOL_NAMES];
    },
  };
}
