import { DEFAULT_NATIVE_PLUGIN_NAMES, setMcpServerEnabled } from "../../mcp/config/index.js";
import { requireLaunchEnvConfirmed } from "../../mcp/approval/index.js";
import type { McpService } from "../../mcp/service/index.js";
import { displayInline } from "../../terminal/display.js";
import { AgentToolError, requireMcpForModel } from "./errors.js";
import { mcpServerInfo } from "./mcp-servers.js";
import { heldToolNote } from "./module-summaries.js";
import type { AgentToolContext } from "./types.js";

export type ServerAction = "info" | "enable" | "disable" | "connect" | "disconnect";

/**
 * The model may switch servers on and off, but approval is the person's: an unapproved server is
 * enabled only after they have read the approval text and said yes; with nobody to ask it is refused.
 */
export async function ensureApprovedByPerson(context: AgentToolContext, service: McpService, name: string, signal?: AbortSignal): Promise<void> {
  if ((await service.approvalStatus(name)).state === "approved") return;
  if (!context.person.canAsk) {
    throw new AgentToolError(
      "PERSON_UNAVAILABLE",
      `MCP server "${name}" is not approved, and there is no terminal to ask the person. Only they can approve it: \`mcpvm mcp approve ${name}\` (or /mcp approve ${name} in the REPL).`,
      { data: { server: name } },
    );
  }
  // Code-loading env (NODE_OPTIONS, LD_PRELOAD, …) is never approved by a y/N the model asked for:
  // the error sends the person to `mcp approve`, where they confirm it explicitly.
  requireLaunchEnvConfirmed(name, service.entry(name).env, false);
  // The prompt text escapes every config string (renderApprovalPrompt); so is the name here.
  const details = await service.approvalPrompt(name);
  if (!(await context.person.confirm(details, `The assistant asks to enable MCP server "${displayInline(name)}". Approve it?`, signal))) {
    throw new AgentToolError("DECLINED", `The person declined to approve MCP server "${name}". Do not ask again unless they want it.`, { data: { server: name } });
  }
  await service.approve(name);
}

async function connect(context: AgentToolContext, name: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const service = await requireMcpForModel(context.host);
  const start = () => service.catalog(name, signal === undefined ? {} : { signal });
  const catalog = context.person.progress === undefined ? await start() : await context.person.progress(`starting MCP server ${name}…`, start);
  return {
    module: `host:${catalog.module}`,
    summary: catalog.metadata().summary,
    tools: catalog.tools.length,
    ...(catalog.held.length > 0 ? { held: catalog.held.map((h) => heldToolNote(name, h)) } : {}),
  };
}

/** manage {action, server}: what the model may do with one MCP server (approval stays the person's). */
export async function serverAction(context: AgentToolContext, action: ServerAction, name: string, abortSignal?: AbortSignal): Promise<Record<string, unknown>> {
  const host = context.host;
  const service = await requireMcpForModel(host);
  if (action === "info") return mcpServerInfo(service, name, abortSignal);
  const entry = service.entry(name);
  switch (action) {
    case "enable": {
      await ensureApprovedByPerson(context, service, name, abortSignal);
      if (!entry.enabled) {
        await setMcpServerEnabled(host.paths.configFile, name, true, { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES });
        await host.reload();
      }
      return { enabled: name, ...(await connect(context, name, abortSignal)) };
    }
    case "disable":
      if (entry.enabled) {
        await setMcpServerEnabled(host.paths.configFile, name, false, { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES });
        await host.reload();
      }
      return { disabled: name };
    case "connect":
      return { connected: name, ...(await connect(context, name, abortSignal)) };
    case "disconnect":
      if (service.clients.serverNames().includes(name)) await service.clients.close(name);
      return { disconnected: name };
  }
}
