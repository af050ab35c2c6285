import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import { loadTokenizer } from "../../src/agent/llm/tokenizer.js";
import { toolDefinitionsAsSent } from "../../src/agent/llm/wire-tools.js";
import { buildSystemMessage } from "../../src/agent/system-message.js";
import { AGENT_TOOL_NAMES, buildAgentTools, connectedModuleSummary, mcpModuleInfo, moduleSummaries } from "../../src/agent/tools/index.js";
import { serverModuleSummary } from "../../src/agent/tools/module-summaries.js";
import { McpvmHost } from "../../src/host/index.js";
import { ServerCatalog } from "../../src/mcp/service/index.js";
import { CompiledTypesCache } from "../../src/mcp/type-generator/index.js";
import { ROOT, tempHome } from "./repl-driver.js";

/** Real servers' tools/list results, recorded once (github, filesystem, memory, sequential-thinking, everything). */
const LISTINGS = join(ROOT, "tests/fixtures/real-server-tool-listings.json");

export interface ScenarioFigures {
  readonly servers: readonly string[];
  readonly systemTokens: number;
  readonly toolDefinitionTokens: number;
  readonly toolDefinitionCount: number;
  /** System message + tool definitions: what the first request carries before the conversation. */
  readonly firstRequestTokens: number;
  /** The same servers' tools as plain MCP tools/list JSON (what a client that exposes every tool puts in context). */
  readonly toolsListTokens: number | undefined;
  /** firstRequest / toolsList. */
  readonly firstRequestShare: number | undefined;
  /** (firstRequest + one module_info result) / toolsList, for each server's module_info. */
  readonly withOneModuleInfoShares: Readonly<Record<string, number>>;
}

export interface TokenFigures {
  readonly encoding: string;
  readonly scenarios: readonly ScenarioFigures[];
}

/**
 * What the servers declare at initialize beside tools (the recorded listings hold tools only):
 * server-everything offers resources and prompts, server-memory its graph as a resource; module_info
 * spends a line on them.
 */
const CAPABILITIES: Record<string, ServerCapabilities> = { everything: { resources: {}, prompts: {} }, memory: { resources: {} } };

function catalogOf(server: string, tools: readonly Tool[]): ServerCatalog {
  return new ServerCatalog(
    { server, description: undefined, instructions: undefined, trusted: tools, held: [], dropped: [], hiddenByFilters: [], unmatchedFilters: [], capabilities: CAPABILITIES[server] },
    new CompiledTypesCache(),
  );
}

/**
 * What the model receives before any conversation, counted with the tokenizer /tokens uses, for 0,
 * 1 (memory) and 5 configured servers. The agent's own side is the real thing: a host in a fresh home
 * with the mcp plugin approved and enabled gives the plugin modules and hints, buildAgentTools the 8
 * tool definitions exactly as the provider sends them. The servers are recorded tools/list results
 * of real servers, each shown as connected (its line summarises its tools).
 */
export async function measureTokenFigures(): Promise<TokenFigures> {
  const listings = JSON.parse(await readFile(LISTINGS, "utf8")) as Record<string, Tool[]>;
  const tokenizer = await loadTokenizer();
  const home = await tempHome();
  await writeFile(join(home.dir, "config.json"), JSON.stringify({ plugins: { mcp: { enabled: true } } }));
  const host = await McpvmHost.open({ env: { MCPVM_HOME: home.dir, PATH: process.env.PATH ?? "" }, engine: "quickjs" });
  try {
    await host.plugins.approve("mcp");
    await host.reload();
    const pluginModules = await moduleSummaries(host);
    const hints = (await host.hostModules()).hints.mcp ?? [];
    const { tools } = buildAgentTools({ host, person: { canAsk: false, confirm: async () => false }, runLimits: () => ({}) });
    const definitions = await toolDefinitionsAsSent(tools, AGENT_TOOL_NAMES);
    const toolDefinitionTokens = tokenizer.count(JSON.stringify(definitions));

    const scenario = async (servers: readonly string[]): Promise<ScenarioFigures> => {
      const catalogs = servers.map((server) => catalogOf(server, listings[server] ?? []));
      const system = buildSystemMessage({
        modules: [
          ...pluginModules,
          ...catalogs.map((c) => ({ module: c.module, kind: "mcp" as const, summary: serverModuleSummary({ server: c.server, approval: "approved", connectedSummary: connectedModuleSummary(c) }) })),
        ],
        mcpEnabled: true,
      });
      const systemTokens = tokenizer.count(system);
      const firstRequestTokens = systemTokens + toolDefinitionTokens;
      const toolsListTokens = servers.length === 0 ? undefined : servers.reduce((sum, server) => sum + tokenizer.count(JSON.stringify({ tools: listings[server] })), 0);
      const withOneModuleInfoShares: Record<string, number> = {};
      if (toolsListTokens !== undefined) {
        // A string tool result reaches the model as it is.
        for (const catalog of catalogs) withOneModuleInfoShares[catalog.server] = (firstRequestTokens + tokenizer.count(await mcpModuleInfo(catalog, hints))) / toolsListTokens;
      }
      return {
        servers,
        systemTokens,
        toolDefinitionTokens,
        toolDefinitionCount: definitions.length,
        firstRequestTokens,
        toolsListTokens,
        firstRequestShare: toolsListTokens === undefined ? undefined : firstRequestTokens / toolsListTokens,
        withOneModuleInfoShares,
      };
    };
    return { encoding: tokenizer.encoding, scenarios: [await scenario([]), await scenario(["memory"]), await scenario(Object.keys(listings))] };
  } finally {
    await host.close();
    await home.cleanup();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number) => x.toLocaleString("en-US");

/** The docs table, as measured (printed by the test when the docs and the measurement disagree). */
export function figuresTable(figures: TokenFigures): string {
  const rows = figures.scenarios.map((s) => {
    const shares = Object.values(s.withOneModuleInfoShares);
    const label = s.servers.length === 0 ? "0" : s.servers.length === 1 ? `1 (${s.servers[0]})` : `${s.servers.length} (${s.servers.join(", ")})`;
    const range = shares.length === 0 ? "–" : shares.length === 1 ? pct(shares[0] as number) : `${pct(Math.min(...shares))}–${pct(Math.max(...shares))}`;
    return `| ${label} | ${num(s.systemTokens)} | ${num(s.toolDefinitionTokens)} | ${num(s.firstRequestTokens)} | ${s.toolsListTokens === undefined ? "–" : num(s.toolsListTokens)} | ${s.firstRequestShare === undefined ? "–" : pct(s.firstRequestShare)} | ${range} |`;
  });
  return [
    "| servers (connected) | system message | 3 tool definitions | first request | their plain `tools/list` | first request ÷ `tools/list` | + one `module_info` ÷ `tools/list` |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
