import type { ToolSet } from "ai";
import { executeJavascriptTool } from "./execute-javascript.js";
import { managePluginTool } from "./manage-plugin.js";
import { manageMcpTool } from "./manage-mcp.js";
import { moduleInfoTool } from "./module-info.js";
import { searchToolsTool } from "./search-tools.js";
import type { AgentToolContext } from "./types.js";

export type { AgentToolContext, PersonInteraction } from "./types.js";
export { runOutput, executeJavascriptInput } from "./execute-javascript.js";
export { AgentToolError, compactDeclarations, mcpModuleInfo, FULL_DECLARATION_MAX_CHARS, SIGNATURES_MAX_CHARS, moduleInfoInput } from "./module-info.js";
export { moduleSummaries, type ModuleSummary } from "./module-summaries.js";
export { searchToolsResults, searchToolsInput } from "./search-tools.js";
export { sweepCatalogs, type CatalogSweep } from "./catalogs.js";
export { entryForModel, listMcpServers, mcpServerInfo } from "./mcp-servers.js";
export { ensureApprovedByPerson, manageMcpInput } from "./manage-mcp.js";
export { pluginApprovalText, managePluginInput } from "./manage-plugin.js";
export { forModel, failure, guardedTool, MAX_TOOL_OUTPUT_CHARS } from "./output.js";
export { moduleName, mcpServerOf } from "./module-names.js";

export const CORE_TOOL_NAMES = ["execute_javascript", "module_info", "manage_plugin"] as const;
export const MCP_TOOL_NAMES = ["search_tools", "manage_mcp"] as const;

/**
 * Every tool the model may get. The MCP ones are only offered while the mcp plugin is enabled:
 * `activeToolNames` is asked before each step, so enabling it mid-turn offers them from the next step.
 */
export function buildAgentTools(context: AgentToolContext): { tools: ToolSet; activeToolNames(): Promise<string[]> } {
  const tools: ToolSet = {
    execute_javascript: executeJavascriptTool(context),
    module_info: moduleInfoTool(context),
    manage_plugin: managePluginTool(context),
    search_tools: searchToolsTool(context),
    manage_mcp: manageMcpTool(context),
  };
  return {
    tools,
    activeToolNames: async () => {
      // Loading is what creates the MCP service after a reload (e.g. the model enabled the plugin).
      await context.host.hostModules();
      return [...CORE_TOOL_NAMES, ...(context.host.mcp() === undefined ? [] : MCP_TOOL_NAMES)];
    },
  };
}
