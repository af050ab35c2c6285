// The `host:mcp-<name>` module table and the guest's `tools` table, from server names alone: what a run
// lists before the mcp plugin loads (./deferred-plugins.ts) and what the plugin's load lists (./mcp-setup.ts).
export { mcpModuleTable } from "../mcp/service/module-table.js";
export { toolsGlobalTable } from "../mcp/service/tools-table.js";
