import type { McpvmHost } from "../../host/index.js";
import type { McpService } from "../../mcp/service/index.js";
import { firstSentence } from "../../mcp/type-generator/index.js";

export interface ModuleSummary {
  /** Without the "host:" prefix. */
  readonly module: string;
  readonly kind: "plugin" | "mcp";
  readonly summary: string;
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
  const service = host.mcp();
  return [...plugins, ...(service === undefined ? [] : await mcpSummaries(service))];
}

async function mcpSummaries(service: McpService): Promise<ModuleSummary[]> {
  return Promise.all(
    service.enabledServers().map(async (server) => {
      const connected = service.clients.serverNames().includes(server) && service.clients.status(server).state === "connected";
      const catalog = connected ? await service.catalog(server).catch(() => undefined) : undefined;
      const description = service.entry(server).description;
      const summary = catalog?.metadata().summary ?? (description !== undefined ? firstSentence(description) : `MCP server "${server}" (starts on first use)`);
      return { module: `mcp-${server}`, kind: "mcp" as const, summary };
    }),
  );
}
