import { descriptionForModel } from "../../mcp/approval/index.js";
import { confirmModeOf, type McpServerEntry } from "../../mcp/config/index.js";
import type { McpService } from "../../mcp/service/index.js";
import { compactSignature } from "../../mcp/type-generator/index.js";

/** The definition the model may see: what runs, never the values of env vars or headers. */
export function entryForModel(entry: McpServerEntry): Record<string, unknown> {
  const keysOnly = (record: Readonly<Record<string, string>> | undefined) => (record === undefined ? undefined : Object.keys(record));
  return {
    transport: entry.type,
    ...(entry.command === undefined ? {} : { command: entry.command, args: entry.args ?? [] }),
    ...(entry.url === undefined ? {} : { url: entry.url }),
    ...(entry.env === undefined ? {} : { envKeys: keysOnly(entry.env) }),
    ...(entry.headers === undefined ? {} : { headerNames: keysOnly(entry.headers) }),
    confirm: confirmModeOf(entry),
  };
}

/**
 * A description is text from the config (often an imported file): the model reads it only once the
 * person approved the server with it, and never one whose audit found block-level text.
 */
function describedForModel(description: string | undefined, approval: string): { description?: string } {
  const shown = descriptionForModel(description, approval);
  return shown === undefined ? {} : { description: shown };
}

/** manage {action: "list"}'s servers: every configured server, enabled, approval, state, tool count. */
export async function listMcpServers(service: McpService): Promise<Record<string, unknown>> {
  const servers = await service.summaries();
  return {
    servers: servers.map((s) => ({
      name: s.name,
      module: `host:mcp-${s.name}`,
      enabled: s.enabled,
      approval: s.approval,
      state: s.state,
      ...(s.toolCount === undefined ? {} : { tools: s.toolCount }),
      ...(s.heldCount ? { held: s.heldCount } : {}),
      ...describedForModel(s.description, s.approval),
    })),
  };
}

/**
 * manage {action: "info", server}: one server's definition (no secret values), approval, and its
 * tools' signatures; connects if approved and enabled.
 */
export async function mcpServerInfo(service: McpService, name: string, abortSignal: AbortSignal | undefined): Promise<Record<string, unknown>> {
        const entry = service.entry(name);
        const approval = (await service.approvalStatus(name)).state;
        const base = { name, module: `host:mcp-${name}`, enabled: entry.enabled, approval, definition: entryForModel(entry), ...describedForModel(entry.description, approval) };
        if (approval !== "approved") {
          const why = approval === "changed" ? "its definition changed since it was approved" : "not approved";
          return { ...base, note: `Not started: ${why}${entry.enabled ? "" : ", and disabled"}. Needs approval: mcpvm mcp approve ${name} (the person runs it), or manage {action: "enable", server: "${name}"} asks the person on the terminal.` };
        }
        if (!entry.enabled) return { ...base, note: `Not started: disabled. manage {action: "enable", server: "${name}"} enables it.` };
        const catalog = await service.catalog(name, abortSignal === undefined ? {} : { signal: abortSignal });
        const meta = catalog.metadata();
        // The notation of module_info, so what the model reads here it can call as written.
        const tools = catalog.forTypes().map((t, i) => ({ signature: compactSignature(t), summary: meta.tools[i]?.summary ?? "" }));
        return { ...base, summary: meta.summary, tools, ...(catalog.held.length > 0 ? { held: catalog.held.map((h) => ({ tool: h.name, reason: h.reason })) } : {}) };
}
