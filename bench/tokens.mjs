// Tokens the model receives about tools (issue 5 target: <= 10% of a plain MCP tools/list).
// For the five real servers in tests/fixtures/real-server-tool-listings.json, compares within one run:
//   ours     = the agent's system message (one line per module) + one module_info result (JSON, as the model gets it)
//   baseline = the same tools as plain MCP tools/list JSON (what a client puts in context when it exposes every tool)
// Tokens are counted with js-tiktoken's o200k_base encoding.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { asSchema } from "ai";
import { buildSystemMessage } from "../dist/src/agent/system-message.js";
import { buildAgentTools, mcpModuleInfo } from "../dist/src/agent/tools/index.js";
import { ServerCatalog } from "../dist/src/mcp/service/index.js";
import { CompiledTypesCache } from "../dist/src/mcp/type-generator/index.js";
import { getEncoding } from "js-tiktoken";
import { builtinToolDefinitions } from "../dist/src/gateway/builtin-tools.js";
import { listingText } from "../dist/src/gateway/listing.js";
import { table } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const LISTINGS = join(here, "..", "tests", "fixtures", "real-server-tool-listings.json");
const MCP_HINTS = JSON.parse(readFileSync(join(here, "..", "plugins", "mcp", "plugin.json"), "utf8")).hints;
// Issue 5: system message + one module_info <= 10 %; issue 15: the same plus the agent's own tool definitions <= 8 %.
const TARGET = 0.1;
const TARGET_WITH_DEFINITIONS = 0.08;
const pct = (x) => `${(x * 100).toFixed(1)}%`;

function catalogOf(server, tools) {
  return new ServerCatalog(
    { server, description: undefined, instructions: undefined, trusted: tools, held: [], dropped: [], hiddenByFilters: [], unmatchedFilters: [] },
    new CompiledTypesCache(),
  );
}

/** The agent's own tool definitions (name, description, JSON schema), sent with every step. */
async function agentToolDefinitionTokens(count) {
  const { tools } = buildAgentTools({ host: undefined, person: { canAsk: false, confirm: async () => false }, runLimits: () => ({}) });
  let total = 0;
  for (const [name, t] of Object.entries(tools)) total += count(JSON.stringify({ type: "function", function: { name, description: t.description, parameters: await asSchema(t.inputSchema).jsonSchema } }));
  return total;
}

/**
 * The gateway (issue 15): what a client's model holds after connecting and asking once what there
 * is — the gateway's own tool definitions (tools/list) + `list_mcp_tools {}` — against the raw
 * tools/list of the same servers, in real o200k_base tokens.
 */
const GATEWAY_SERVERS = ["everything", "memory", "filesystem"];
const GATEWAY_TARGET = 0.3;
async function gatewayTokens(listings) {
  const enc = getEncoding("o200k_base");
  const count = (text) => enc.encode(text).length;
  const catalogs = GATEWAY_SERVERS.map((server) => catalogOf(server, listings[server]));
  const tools = GATEWAY_SERVERS.flatMap((server) => listings[server]);
  const raw = count(JSON.stringify({ tools }));
  const definitions = count(JSON.stringify({ tools: builtinToolDefinitions({ serverNote: "" }) }));
  const compact = count(await listingText(catalogs, {}));
  // What list_mcp_tools {} returned before: every module's full declarations.
  const full = count((await Promise.all(catalogs.map((c) => c.declarations()))).join("\n\n"));
  const oneServer = count(await listingText([catalogs[0]], { server: GATEWAY_SERVERS[0] }));
  return { servers: GATEWAY_SERVERS, tools: tools.length, raw, definitions, compact, full, oneServerFull: oneServer, ratio: (definitions + compact) / raw, ratioBefore: (definitions + full) / raw };
}

export default async function () {
  const enc = getEncoding("o200k_base");
  const count = (text) => enc.encode(text).length;
  const listings = JSON.parse(readFileSync(LISTINGS, "utf8"));
  const catalogs = Object.entries(listings).map(([server, tools]) => catalogOf(server, tools));
  const baseline = Object.values(listings).reduce((sum, tools) => sum + count(JSON.stringify({ tools })), 0);
  const system = count(buildSystemMessage({ modules: catalogs.map((c) => ({ module: c.module, kind: "mcp", summary: c.metadata().summary })), mcpEnabled: true }));
  const definitions = await agentToolDefinitionTokens(count);
  const rows = [];
  const data = { unit: "o200k_base tokens (js-tiktoken)", baselineTokens: baseline, systemMessageTokens: system, agentToolDefinitionTokens: definitions, servers: {} };
  for (const catalog of catalogs) {
    const info = await mcpModuleInfo(catalog, MCP_HINTS);
    // A string tool result reaches the model as-is (an object would be JSON-encoded).
    const infoTokens = count(info);
    const form = info.includes("Signatures only") ? "signatures" : info.includes("Names only") ? "names + summaries" : "full .d.ts";
    const ours = system + infoTokens;
    const ratio = ours / baseline;
    const withDefs = (ours + definitions) / baseline;
    data.servers[catalog.server] = { tools: catalog.tools.length, moduleInfoTokens: infoTokens, form, oursTokens: ours, ratio, ratioWithToolDefinitions: withDefs, met: ratio <= TARGET, metWithDefinitions: withDefs <= TARGET_WITH_DEFINITIONS };
    rows.push([catalog.server, String(catalog.tools.length), form, String(infoTokens), String(ours), pct(ratio), ratio <= TARGET ? "met" : "**missed**", `${ours + definitions} = ${pct(withDefs)}`, withDefs <= TARGET_WITH_DEFINITIONS ? "met" : "**missed**"]);
  }
  const ratios = Object.values(data.servers).map((s) => s.ratio);
  data.meanRatio = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  data.maxRatio = Math.max(...ratios);
  const gw = await gatewayTokens(listings);
  data.gateway = gw;
  const gatewayMarkdown = [
    "",
    `**Gateway** (\`mcpvm serve\`): the gateway's own ${builtinToolDefinitions({ serverNote: "" }).length} tool definitions + \`list_mcp_tools {}\` against the raw tools/list of the same ${gw.tools} tools (${gw.servers.join(", ")}), in o200k_base tokens (js-tiktoken):`,
    "",
    table(
      ["what the model holds", "tokens", "vs raw tools/list", "target", "verdict"],
      [
        ["raw tools/list of the three servers", String(gw.raw), "100%", "", ""],
        ["gateway tool definitions + list_mcp_tools {} (one line per tool for big modules)", `${gw.definitions} + ${gw.compact} = ${gw.definitions + gw.compact}`, pct(gw.ratio), `<= ${pct(GATEWAY_TARGET)}`, gw.ratio <= GATEWAY_TARGET ? "met" : "**missed**"],
        ["before: the same with full declarations of every module", `${gw.definitions} + ${gw.full} = ${gw.definitions + gw.full}`, pct(gw.ratioBefore), "", ""],
        [`list_mcp_tools {"server": "${gw.servers[0]}"} (full declarations, on request)`, String(gw.oneServerFull), "", "", ""],
      ],
    ),
  ];
  const markdown = [
    `Baseline: the five servers' tools as plain MCP tools/list JSON = ${baseline} tokens (o200k_base, js-tiktoken). Our system message (one line per module, five modules) = ${system} tokens; the agent's own ${Object.keys(buildAgentTools({ host: undefined, person: { canAsk: false, confirm: async () => false }, runLimits: () => ({}) }).tools).length} tool definitions = ${definitions} tokens.`,
    "Each row: our system message + module_info for that one server, against the whole baseline (target <= 10 %); the last two columns add the agent's tool definitions, sent with every step (issue 15's target <= 8 %).",
    "",
    table(["module_info for", "tools", "module_info form", "module_info tokens", "ours tokens", "ours / tools/list", "target <= 10 %", "with tool definitions", "target <= 8 %"], rows),
    "",
    `Mean ${pct(data.meanRatio)}, worst ${pct(data.maxRatio)}. module_info returns the full .d.ts when it is at most 3,000 characters, else one-line signatures when they fit in 4,000, else names with one-line summaries; module_info {tools: [...]} always gives full declarations of the chosen tools, and search_tools gives signatures.`,
    ...gatewayMarkdown,
  ].join("\n");
  return { title: "Tokens the model receives about tools (agent REPL)", markdown, data };
}
