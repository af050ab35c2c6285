// What the host needs to build its MCP service, in one module the host imports when the mcp plugin
// loads (McpvmHost.mcpModules): a run with the plugin off never loads the MCP service, its audit,
// type generator or client manager (docs/ARCHITECTURE.md, "How the CLI is built and loaded").
export { McpApprovalStore } from "../mcp/approval/index.js";
export { DEFAULT_NATIVE_PLUGIN_NAMES, parseMcpServers } from "../mcp/config/index.js";
export { McpPinStore } from "../mcp/pins/index.js";
export { OAuthLogins, OAuthTokenStore } from "../mcp/oauth/index.js";
export { McpService, mcpHostModules, restrictMcpModules, toolsGlobalPrelude } from "../mcp/service/index.js";
export { modelConfigSchema, resolveModel } from "../agent/llm/model-config.js";
export { mcpPluginConfigSchema } from "../../plugins/mcp/config.js";
