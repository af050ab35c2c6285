import { tool } from "ai";
import { z } from "zod";
import type { McpvmHost } from "../../host/index.js";
import type { ServerCatalog } from "../../mcp/service/index.js";
import { compactListing, compactListingText, generateModuleDeclaration } from "../../mcp/type-generator/index.js";
import { AgentToolError, requireMcpForModel } from "./errors.js";
import { mcpServerOf, moduleName } from "./module-names.js";
import { heldToolNote, moduleSummaries } from "./module-summaries.js";
import { modelSchema } from "./model-schema.js";
import { guardedTool } from "./output.js";
import { searchAnswer } from "./search.js";
import type { AgentToolContext } from "./types.js";

/** Compact signatures are returned when they fit in this; beyond it (big servers) names and summaries only. */
export const SIGNATURES_MAX_CHARS = 3_000;

export const moduleInfoInput = z
  .object({
    name: z.string().min(1).optional(),
    tools: z.array(z.string()).max(50).optional(),
    query: z.string().min(1).optional(),
  })
  .strict();

/**
 * How to call an MCP module, said once per module_info answer rather than in every step's
 * definitions: the model reads it exactly when it is about to write calls.
 */
function callLine(module: string): string {
  return `const m = require("host:${module}"); m.fn({…}) is synchronous; m.$batch("fn", [args…]) runs calls in parallel → [{ok, value} | {ok: false, error}].`;
}

/** The module's resources and prompts namespaces, when the server has them: one line, full types on request. */
function protocolLine(catalog: ServerCatalog): string[] {
  const { resources, prompts } = catalog.protocol;
  const parts = [
    ...(resources === undefined ? [] : [`m.${resources}: list() → [{uri, name, description?, mimeType?}], read(uri) → string | Uint8Array, readAll(uri), templates()`]),
    ...(prompts === undefined ? [] : [`m.${prompts}: list() → [{name, description?, arguments?}], get(name, args?: Record<string, string>) → {messages}`]),
  ];
  return parts.length === 0 ? [] : [`Also ${parts.join("; ")}.`];
}

/** A big module's tools by name: what to read next is named in the answer. */
function toolList(catalog: ServerCatalog): string {
  return catalog
    .metadata()
    .tools.map((t) => `${t.jsName} — ${t.summary}`)
    .join("\n");
}

/** The compact signatures of a catalog (aliases, shared return type, one line per tool). */
export function compactDeclarations(catalog: ServerCatalog): string {
  return compactListingText(compactListing(catalog.forTypes()));
}

/**
 * module_info for an MCP module, as text (it reads better unescaped): how to call it, then the most
 * detail that fits: one compact signature per tool (parameter names, types, optionality, enums,
 * return type, a one-line summary), else names and summaries. Naming `tools` gives their full
 * declarations (parameter docs, every type) with the module's hints.
 */
export async function mcpModuleInfo(catalog: ServerCatalog, hints: readonly string[], tools?: readonly string[]): Promise<string> {
  const meta = catalog.metadata();
  const held = catalog.held.map((h) => `- ${heldToolNote(catalog.server, h)}`);
  const heldPart = held.length === 0 ? [] : ["", "Held tools:", ...held];
  if (tools !== undefined && tools.length > 0) {
    const wanted = catalog.forTypes().filter((t) => tools.includes(t.jsName) || tools.includes(t.originalName));
    const missing = tools.filter((name) => !wanted.some((t) => t.jsName === name || t.originalName === name));
    const body = await generateModuleDeclaration(catalog.server, wanted);
    const note = missing.length === 0 ? [] : ["", `Not in host:${meta.module}: ${missing.join(", ")}.`];
    return [`host:${meta.module}: ${meta.summary}`, "Hints:", ...hints.map((h) => `- ${h}`), "", body, ...note, ...heldPart].join("\n");
  }
  const compact = compactDeclarations(catalog);
  const body =
    compact.length <= SIGNATURES_MAX_CHARS
      ? compact
      : `${toolList(catalog)}\n(A big module: module_info {name, query} gives matching signatures, {name, tools: [...]} full declarations.)`;
  return [callLine(meta.module), body, ...protocolLine(catalog), ...heldPart].join("\n");
}

async function pluginModuleInfo(host: McpvmHost, module: string): Promise<string | undefined> {
  const loaded = await host.hostModules();
  const info = loaded.moduleInfo[module];
  if (info === undefined || !(module in loaded.modules)) return undefined;
  const hints = loaded.hints[info.plugin] ?? [];
  return [`host:${module}: ${info.description}`, "Hints:", ...hints.map((h) => `- ${h}`), "", loaded.declarations[info.plugin] ?? Object.entries(info.functions).map(([fn, doc]) => `- ${fn}: ${doc}`).join("\n")].join("\n");
}

export function moduleInfoTool(context: AgentToolContext) {
  return tool({
    description: "How to call host modules. {name: \"mcp-x\"}: its signatures; {name, tools: [fn]}: full declarations; {query}: search MCP functions (all, or name's); {}: list modules.",
    inputSchema: modelSchema("module_info", moduleInfoInput),
    execute: async ({ name, tools, query }, { abortSignal }) =>
      guardedTool(context.host, async () => {
        if (query !== undefined && name === undefined) return searchAnswer(context, query, abortSignal);
        if (name === undefined) return { modules: (await moduleSummaries(context.host)).map((m) => ({ module: `host:${m.module}`, summary: m.summary })) };
        const module = moduleName(name);
        let server = mcpServerOf(module);
        if (server === undefined) {
          const info = await pluginModuleInfo(context.host, module);
          if (info !== undefined) return info;
          // manage names servers by their config name ("memory"), so the model asks for that too: it means host:mcp-memory.
          if (!Object.hasOwn(context.host.config.mcpServers ?? {}, module)) {
            throw new AgentToolError("MODULE_UNKNOWN", `No module "${module}" is available; module_info without input lists the modules there are.`);
          }
          server = module;
        }
        if (query !== undefined) return searchAnswer(context, query, abortSignal, server);
        const service = await requireMcpForModel(context.host);
        const start = () => service.catalog(server, abortSignal === undefined ? {} : { signal: abortSignal });
        const catalog = context.person.progress === undefined ? await start() : await context.person.progress(`starting MCP server ${server}…`, start);
        return mcpModuleInfo(catalog, (await context.host.hostModules()).hints.mcp ?? [], tools);
      }),
  });
}
