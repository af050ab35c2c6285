import type { McpvmHost } from "../../host/index.js";
import { descriptionForModel } from "../../mcp/approval/index.js";
import type { McpService, ServerCatalog } from "../../mcp/service/index.js";
import { firstSentence } from "../../mcp/type-generator/index.js";

export interface ModuleSummary {
  /** Without the "host:" prefix. */
  readonly module: string;
  readonly kind: "plugin" | "mcp";
  readonly summary: string;
}

/** What the model needs to know about one enabled server to use it, or to know it cannot yet. */
export interface ServerModuleState {
  readonly server: string;
  readonly approval: "approved" | "unapproved" | "changed" | "error";
  /** From the trusted tools, once connected. */
  readonly connectedSummary?: string | undefined;
  /** The configured description as the model may read it (descriptionForModel): approved, no block-level findings. */
  readonly description?: string | undefined;
  /** Tools listed but held from use until the person accepts them. */
  readonly heldCount?: number | undefined;
}

/**
 * One line about an enabled server. An unapproved server will not start, so the line says so and
 * names the person's command instead of describing it as usable; its configured description (text
 * from an imported file nobody reviewed yet) is left out until it is approved.
 */
export function serverModuleSummary(state: ServerModuleState): string {
  const name = JSON.stringify(state.server);
  const approve = `mcpvm mcp approve ${state.server}`;
  switch (state.approval) {
    case "unapproved":
      return `MCP server ${name}: needs approval: ${approve}`;
    case "changed":
      return `MCP server ${name}: its definition changed since it was approved; needs approval: ${approve}`;
    case "error":
      return `MCP server ${name}: its approval could not be checked, so it will not start (mcpvm mcp list shows why)`;
    case "approved": {
      const base = state.connectedSummary ?? (state.description !== undefined ? firstSentence(state.description) : `MCP server ${name} (approved; starts on first use)`);
      const held = state.heldCount ?? 0;
      return held === 0 ? base : `${base} (${held} tool${held === 1 ? "" : "s"} held until the person accepts them: ${approve} --tools)`;
    }
  }
}

/**
 * What the model is told about one held tool. The same text reaches the REPL's model and, through module_info and
 * manage, a gateway's client, where no REPL exists: the command line comes first, the REPL's form after it.
 */
export function heldToolNote(server: string, tool: { readonly name: string; readonly reason: string }): string {
  return `${tool.name} (${tool.reason}): hidden until the person accepts it: mcpvm mcp approve ${server} --tools (or /mcp approve ${server} --tools in the REPL)`;
}

/** How many characters of tool names a module's line in the system message may hold. */
const NAMES_MAX_CHARS = 50;

/**
 * A connected server's line: its own description when it gave one, else its tool count and first
 * tool names (what it is for, at a glance), cut at a name: the signatures come from module_info.
 */
export function connectedModuleSummary(catalog: ServerCatalog): string {
  const meta = catalog.metadata();
  // The metadata's own summary when the server described itself; its generated names list is longer.
  if (!meta.summary.startsWith(`MCP server ${JSON.stringify(catalog.server)}, `)) return meta.summary;
  const names: string[] = [];
  let length = 0;
  for (const tool of meta.tools) {
    if (names.length > 0 && length + tool.jsName.length > NAMES_MAX_CHARS) break;
    names.push(tool.jsName);
    length += tool.jsName.length + 2;
  }
  const more = names.length < meta.tools.length ? ", …" : "";
  return `${meta.tools.length} tool${meta.tools.length === 1 ? "" : "s"}: ${names.join(", ")}${more}`;
}

/**
 * One line per module the guest can require right now: plugin modules from their manifests, MCP
 * modules of enabled servers. Servers are not started for this: a connected server's summary comes
 * from its tools, an idle one's from its configured description.
 */
export async function moduleSummaries(host: McpvmHost): Promise<ModuleSummary[]> {
  const loaded = await host.hostModules();
  const plugins = Object.entries(loaded.moduleInfo)
    .filter(([module]) => module in loaded.modules)
    .map(([module, info]) => ({ module, kind: "plugin" as const, summary: firstSentence(info.description) }));
  const service = await host.mcpIfOn();
  return [...plugins, ...(service === undefined ? [] : await mcpSummaries(service))];
}

async function mcpSummaries(service: McpService): Promise<ModuleSummary[]> {
  return Promise.all(
    service.enabledServers().map(async (server) => {
      const approval = await service.approvalStatus(server).then((s) => s.state, () => "error" as const);
      const connected = approval === "approved" && service.clients.serverNames().includes(server) && service.clients.status(server).state === "connected";
      const catalog = connected ? await service.catalog(server).catch(() => undefined) : undefined;
      const summary = serverModuleSummary({
        server,
        approval,
        connectedSummary: catalog === undefined ? undefined : connectedModuleSummary(catalog),
        description: descriptionForModel(service.entry(server).description, approval),
        heldCount: catalog?.held.length,
      });
      return { module: `mcp-${server}`, kind: "mcp" as const, summary };
    }),
  );
}
