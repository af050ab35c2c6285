// The MCP service and what builds it, in one module the host imports the first time something needs
// the service (McpvmHost.buildMcp): a run that requires no `host:mcp-*` module never loads the client
// manager, the audit or the type generator (docs/ARCHITECTURE.md, "How the CLI is built and loaded").
export { McpApprovalStore } from "../mcp/approval/index.js";
export { McpPinStore } from "../mcp/pins/index.js";
export { OAuthLogins, OAuthTokenStore } from "../mcp/oauth/index.js";
export { routeSdkWarnings } from "../mcp/oauth/sdk-warnings.js";
export { McpService, accessAllows, loadMcpModule, restrictMcpModules } from "../mcp/service/index.js";
export { modelConfigSchema, resolveModel } from "../agent/llm/model-config.js";
