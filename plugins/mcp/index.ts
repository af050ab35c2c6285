import type { PluginRegistration } from "../../src/plugin-system/types.js";
import { PluginError } from "../../src/plugin-system/errors.js";
import { mcpPluginConfigSchema, type McpPluginConfig } from "./config.js";

/**
 * The gate in front of everything MCP. Until this plugin is approved and enabled, the host never
 * builds its MCP service: no server is started, no `/mcp` command or MCP tool for the model exists.
 * Once loaded, it asks the host for one lazy `host:mcp-<server>` module per enabled server.
 */
const mcp: PluginRegistration<McpPluginConfig> = {
  name: "mcp",
  declaredModules: [],
  declaredModulePrefixes: ["mcp-"],
  configSchema: mcpPluginConfigSchema,
  async createHostFunctions(config, context) {
    const provide = context.services?.mcpModules;
    if (provide === undefined) {
      throw new PluginError("PLUGIN_LOAD_FAILED", "the mcp plugin runs only inside the mcpvm host, which provides its MCP service");
    }
    return provide(config);
  },
};

export default mcp;
