import { tool } from "ai";
import { z } from "zod";
import { AgentToolError } from "./errors.js";
import { serverAction } from "./manage-mcp.js";
import { listPlugins, pluginAction } from "./manage-plugin.js";
import { listMcpServers } from "./mcp-servers.js";
import { modelSchema } from "./model-schema.js";
import { guardedTool } from "./output.js";
import type { AgentToolContext } from "./types.js";

/**
 * One tool for what the model may change about its surroundings: MCP servers and plugins share the
 * verbs (info, enable, disable), so one schema serves both; `server` or `plugin` says which.
 */
export const manageInput = z
  .object({
    action: z.enum(["list", "info", "enable", "disable", "connect", "disconnect"]),
    server: z.string().min(1).optional(),
    plugin: z.string().min(1).optional(),
  })
  .strict();

type ManageInput = z.infer<typeof manageInput>;

async function run(context: AgentToolContext, { action, server, plugin }: ManageInput, signal?: AbortSignal): Promise<Record<string, unknown>> {
  if (action === "list") {
    await context.host.hostModules();
    const service = await context.host.mcpIfOn();
    const servers = service === undefined ? { servers: [], note: 'MCP is off: manage {action: "enable", plugin: "mcp"} asks the person to turn it on.' } : await listMcpServers(service);
    return { ...servers, plugins: await listPlugins(context) };
  }
  if ((server === undefined) === (plugin === undefined)) {
    throw new AgentToolError("NAME_REQUIRED", `manage {action: "${action}"} needs server or plugin (one of them); {action: "list"} shows the names.`);
  }
  if (server !== undefined) return serverAction(context, action, server, signal);
  if (action === "connect" || action === "disconnect") throw new AgentToolError("NAME_REQUIRED", `${action} is for MCP servers: manage {action: "${action}", server: "<name>"}.`);
  const result = await pluginAction(context, action, plugin as string, signal);
  return plugin === "mcp" && action === "enable" ? { ...result, note: "MCP servers are now modules; module_info lists them." } : result;
}

export function manageTool(context: AgentToolContext) {
  return tool({
    description: "MCP servers and plugins: list; info, enable (the person approves if needed), disable; connect/disconnect a server.",
    inputSchema: modelSchema("manage", manageInput),
    execute: async (input, { abortSignal }) => guardedTool(context.host, () => run(context, input, abortSignal)),
  });
}
