// Tokens the model receives about tools (issue 5 target: <= 10% of a plain MCP tools/list).
// For the five real servers in tests/fixtures/real-server-tool-listings.json, compares within one run:
//   ours     = the agent's system message (one line per module) + one module_info result (JSON, as the model gets it)
//   baseline = the same tools as plain MCP tools/list JSON (what a client puts in context when it exposes every tool)
// Tokens are counted with js-tiktoken's o200k_base encoding.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSystemMessage } from "../dist/src/agent/system-message.js";
import { AGENT_TOOL_NAMES, buildAgentTools, compactDeclarations, connectedModuleSummary, mcpModuleInfo } from "../dist/src/agent/tools/index.js";
import { toolDefinitionsAsSent } from "../dist/src/agent/llm/wire-tools.js";
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

/**
 * What the servers declare at initialize beside tools (the recorded listings hold tools only):
 * server-everything offers resources and prompts, server-memory its graph as a resource. module_info
 * spends a line on them, so the agent's rows count it.
 */
const CAPABILITIES = { everything: { resources: {}, prompts: {} }, memory: { resources: {} } };

function catalogOf(server, tools, capabilities) {
  return new ServerCatalog(
    { server, description: undefined, instructions: undefined, trusted: tools, held: [], dropped: [], hiddenByFilters: [], unmatchedFilters: [], capabilities },
    new CompiledTypesCache(),
  );
}

/** The agent's own tool definitions as the provider sends them (the request's `tools` array), with every step; and each one alone. */
async function agentToolDefinitionTokens(count) {
  const { tools } = buildAgentTools({ host: undefined, person: { canAsk: false, confirm: async () => false }, runLimits: () => ({}) });
  const definitions = await toolDefinitionsAsSent(tools, AGENT_TOOL_NAMES);
  return { total: count(JSON.stringify(definitions)), each: Object.fromEntries(definitions.map((d) => [d.function.name, count(JSON.stringify(d))])) };
}

// The last measurement before the agent's surface was designed for tokens (wave 5, this same fixture and tokenizer).
const BEFORE = { system: 282, definitions: 628, tools: 5, moduleInfo: { github: 576, filesystem: 808, memory: 707, "sequential-thinking": 260, everything: 686 } };

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
  const catalogs = Object.entries(listings).map(([server, tools]) => catalogOf(server, tools, CAPABILITIES[server]));
  const baseline = Object.values(listings).reduce((sum, tools) => sum + count(JSON.stringify({ tools })), 0);
  // The system message as the agent builds it for five connected servers (one short line each).
  const system = count(buildSystemMessage({ modules: catalogs.map((c) => ({ module: c.module, kind: "mcp", summary: connectedModuleSummary(c) })), mcpEnabled: true }));
  const { total: definitions, each } = await agentToolDefinitionTokens(count);
  const rows = [];
  const data = { unit: "o200k_base tokens (js-tiktoken)", baselineTokens: baseline, systemMessageTokens: system, agentToolDefinitionTokens: definitions, eachToolDefinition: each, before: BEFORE, servers: {} };
  for (const catalog of catalogs) {
    const info = await mcpModuleInfo(catalog, MCP_HINTS);
    // A string tool result reaches the model as-is (an object would be JSON-encoded).
    const infoTokens = count(info);
    const form = info.includes("(A big module:") ? "names + summaries" : "compact signatures";
    // The signatures alone, whatever form module_info chose: the floor of a listing a model can call from.
    const signatureTokens = count(compactDeclarations(catalog));
    const ours = system + infoTokens;
    const ratio = ours / baseline;
    const withDefs = (ours + definitions) / baseline;
    const before = BEFORE.moduleInfo[catalog.server];
    data.servers[catalog.server] = { tools: catalog.tools.length, moduleInfoTokens: infoTokens, moduleInfoTokensBefore: before, form, compactSignatureTokens: signatureTokens, oursTokens: ours, ratio, ratioWithToolDefinitions: withDefs, met: ratio <= TARGET, metWithDefinitions: withDefs <= TARGET_WITH_DEFINITIONS };
    rows.push([catalog.server, String(catalog.tools.length), form, `${before} → ${infoTokens}`, String(signatureTokens), String(ours), pct(ratio), ratio <= TARGET ? "met" : "**missed**", `${ours + definitions} = ${pct(withDefs)}`, withDefs <= TARGET_WITH_DEFINITIONS ? "met" : "**missed**"]);
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
  const eachText = Object.entries(each).map(([name, n]) => `${name} ${n}`).join(", ");
  const markdown = [
    `Baseline: the five servers' tools as plain MCP tools/list JSON = ${baseline} tokens (o200k_base, js-tiktoken); 8 % of it is ${Math.floor(baseline * TARGET_WITH_DEFINITIONS)}. Our system message (one line per module, five modules) = ${system} tokens (before: ${BEFORE.system}); the agent's own ${AGENT_TOOL_NAMES.length} tool definitions as sent = ${definitions} tokens (before: ${BEFORE.tools} tools, ${BEFORE.definitions}): ${eachText}.`,
    "Each row: our system message + module_info for that one server, against the whole baseline (target <= 10 %); the last two columns add the agent's tool definitions, sent with every step (issue 15's target <= 8 %). \"compact signatures alone\" is that module's signature listing whatever form module_info chose (for github, what module_info {name, tools} would add up to for all 26).",
    "",
    table(["module_info for", "tools", "module_info form", "module_info tokens (before → now)", "compact signatures alone", "ours tokens", "ours / tools/list", "target <= 10 %", "with tool definitions", "target <= 8 %"], rows),
    "",
    `Mean ${pct(data.meanRatio)}, worst ${pct(data.maxRatio)}. module_info {name} gives a call line, then one compact signature per function (parameter names, types, optionality, enums, return type, one-line summary; shared object types named once, a shared return type said once) when they fit in 3,000 characters, else names with one-line summaries; module_info {name, tools: [...]} gives full declarations of the chosen functions, and module_info {query} searches.`,
    ...gatewayMarkdown,
  ].join("\n");
  return { title: "Tokens the model receives about tools (agent REPL)", markdown, data };
}
