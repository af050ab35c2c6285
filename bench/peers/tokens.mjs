// Tokens a client's model holds about the same 36 tools (everything + memory + filesystem, their real
// tools/list in tests/fixtures/real-server-tool-listings.json), o200k_base:
// - mcpvm gateway: its own tool definitions (tools/list) + the answer of `list_mcp_tools {}`;
// - @utcp/code-mode: its AGENT_PROMPT_TEMPLATE + getAllToolsTypeScriptInterfaces() for the same tools
//   (registered as a UTCP direct-call manual with the same input and output schemas);
// - baseline: the raw tools/list JSON.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getEncoding } from "js-tiktoken";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, "..", "..");
const SERVERS = ["everything", "memory", "filesystem"];

export async function measureTokens() {
  const listings = JSON.parse(readFileSync(join(ROOT, "tests", "fixtures", "real-server-tool-listings.json"), "utf8"));
  const encoder = getEncoding("o200k_base");
  const count = (text) => encoder.encode(text).length;
  const tools = SERVERS.flatMap((server) => listings[server]);
  const raw = count(JSON.stringify({ tools }));

  const { ServerCatalog } = await import(join(ROOT, "dist", "src", "mcp", "service", "index.js"));
  const { CompiledTypesCache } = await import(join(ROOT, "dist", "src", "mcp", "type-generator", "index.js"));
  const { builtinToolDefinitions } = await import(join(ROOT, "dist", "src", "gateway", "builtin-tools.js"));
  const { listingText } = await import(join(ROOT, "dist", "src", "gateway", "listing.js"));
  const cache = new CompiledTypesCache();
  const catalogs = SERVERS.map((server) => new ServerCatalog({ server, description: undefined, instructions: undefined, trusted: listings[server], held: [], dropped: [], hiddenByFilters: [], unmatchedFilters: [] }, cache));
  const mcpvm = count(JSON.stringify({ tools: builtinToolDefinitions({ serverNote: "" }) })) + count(await listingText(catalogs, {}));

  let codeMode;
  try {
    const { CodeModeUtcpClient } = await import("@utcp/code-mode");
    const { addFunctionToUtcpDirectCall } = await import("@utcp/direct-call");
    const log = console.log;
    console.log = () => {};
    try {
      const client = await CodeModeUtcpClient.create();
      for (const server of SERVERS) {
        addFunctionToUtcpDirectCall(`tokens_${server}`, async () => ({
          utcp_version: "1.0.0",
          manual_version: "1.0.0",
          tools: listings[server].map((t) => ({ name: t.name, description: t.description ?? "", inputs: t.inputSchema ?? { type: "object" }, outputs: t.outputSchema ?? { type: "object" }, tags: [], tool_call_template: { call_template_type: "direct-call", callable_name: "tokensNoop" } })),
        }));
        await client.registerManual({ name: server.replace(/-/g, "_"), call_template_type: "direct-call", callable_name: `tokens_${server}` });
      }
      const interfaces = await client.getAllToolsTypeScriptInterfaces();
      codeMode = { tokens: count(CodeModeUtcpClient.AGENT_PROMPT_TEMPLATE) + count(interfaces), tools: (await client.getTools?.())?.length };
    } finally {
      console.log = log;
    }
  } catch (error) {
    codeMode = { error: String(error?.message ?? error).slice(0, 200) };
  }
  return { tools: tools.length, raw, mcpvm, codeMode };
}
