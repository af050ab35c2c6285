// What the host needs when the mcp plugin loads: the plugin's settings, the configured servers
// (validated, so a bad mcpServers entry still refuses the plugin at load) and the table of lazy
// `host:mcp-<name>` modules, plus the guest's `tools` table. Each from its own file, not a package
// index: the MCP service itself (./mcp-parts.ts: client manager, audit, type generator) loads only
// when something first needs it — a guest's require of a server module, or a face asking for it
// (docs/ARCHITECTURE.md, "How the CLI is built and loaded").
export { DEFAULT_NATIVE_PLUGIN_NAMES, parseMcpServersJson } from "../mcp/config/validate.js";
export { mcpModuleTable, toolsGlobalTable } from "./mcp-listing.js";
export { mcpPluginConfigSchema } from "../../plugins/mcp/config.js";
