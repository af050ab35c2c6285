import { tool } from "ai";
import { z } from "zod";
import type { McpvmHost } from "../../host/index.js";
import type { ServerCatalog } from "../../mcp/service/index.js";
import { generateModuleDeclaration, type ToolMetadata } from "../../mcp/type-generator/index.js";
import { McpvmError } from "../../util/errors.js";
import { mcpServerOf, moduleName } from "./module-names.js";
import { moduleSummaries } from "./module-summaries.js";
import { modelSchema } from "./model-schema.js";
import { guardedTool } from "./output.js";
import type { AgentToolContext } from "./types.js";

export class AgentToolError extends McpvmError<"MODULE_UNKNOWN" | "NAME_REQUIRED" | "PERSON_UNAVAILABLE" | "DECLINED"> {}

/** A module's full .d.ts is returned when it is at most this long; longer ones get a shorter form. */
export const FULL_DECLARATION_MAX_CHARS = 3_000;
/** One-line signatures are returned when they fit in this; beyond it (big servers) names and summaries only. */
export const SIGNATURES_MAX_CHARS = 4_000;

export const moduleInfoInput = z.object({
  name: z.string().min(1).optional().describe('Module, e.g. "mcp-github"; omit to list the modules.'),
  tools: z.array(z.string()).max(50).optional().describe("Only these functions, with full declarations."),
});

function hintText(tool: ToolMetadata): string {
  const tags = [tool.hints.readOnly === true ? "read-only" : undefined, tool.hints.destructive === true ? "destructive" : undefined].filter((t) => t !== undefined);
  return tags.length === 0 ? "" : ` [${tags.join(", ")}]`;
}

/** One-line signatures in .d.ts form: what a model needs to pick and call a function. */
export function compactDeclarations(catalog: ServerCatalog): string {
  const meta = catalog.metadata();
  const lines = meta.tools.map((t) => `  /** ${t.summary}${hintText(t)} */\n  export function ${t.signature};`);
  return `declare module "host:${meta.module}" {\n${lines.join("\n")}\n}`;
}

function toolList(catalog: ServerCatalog): string {
  return catalog
    .metadata()
    .tools.map((t) => `- ${t.jsName}: ${t.summary}${hintText(t)}`)
    .join("\n");
}

/**
 * module_info for an MCP module, as text (declarations read better unescaped): summary, hints, and
 * the most detail that fits: the full .d.ts, else one-line signatures, else names and summaries.
 * Naming `tools` always gives their full declarations.
 */
export async function mcpModuleInfo(catalog: ServerCatalog, hints: readonly string[], tools?: readonly string[]): Promise<string> {
  const meta = catalog.metadata();
  let body: string;
  let note = "";
  if (tools !== undefined && tools.length > 0) {
    const wanted = catalog.forTypes().filter((t) => tools.includes(t.jsName) || tools.includes(t.originalName));
    body = await generateModuleDeclaration(catalog.server, wanted);
  } else {
    const full = await catalog.declarations();
    const compact = compactDeclarations(catalog);
    body = full.length <= FULL_DECLARATION_MAX_CHARS ? full : compact.length <= SIGNATURES_MAX_CHARS ? compact : toolList(catalog);
    if (body === compact) note = "Signatures only; module_info with tools: [names] gives full declarations with parameter docs.";
    else if (body !== full) note = "Names only (a big module); search_tools gives signatures, module_info with tools: [names] full declarations.";
  }
  const held = catalog.held.map((h) => `- ${h.name} (${h.reason}): hidden until the person reviews it with /mcp approve ${catalog.server} --tools`);
  return [`host:${meta.module}: ${meta.summary}`, "Hints:", ...hints.map((h) => `- ${h}`), "", body, ...(note === "" ? [] : ["", note]), ...(held.length === 0 ? [] : ["", "Held tools:", ...held])].join("\n");
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
    description: "The modules guest code can require; with name, one module's summary, hints and TypeScript declarations (starts its MCP server if needed).",
    inputSchema: modelSchema(moduleInfoInput),
    execute: async ({ name, tools }, { abortSignal }) =>
      guardedTool(context.host, async () => {
        if (name === undefined) return { modules: (await moduleSummaries(context.host)).map((m) => ({ module: `host:${m.module}`, summary: m.summary })) };
        const module = moduleName(name);
        const server = mcpServerOf(module);
        if (server === undefined) {
          const info = await pluginModuleInfo(context.host, module);
          if (info !== undefined) return info;
          throw new AgentToolError("MODULE_UNKNOWN", `No module "${module}" is available; module_info without a name lists the modules there are.`);
        }
        const service = await context.host.requireMcp();
        const start = () => service.catalog(server, abortSignal === undefined ? {} : { signal: abortSignal });
        const catalog = context.person.progress === undefined ? await start() : await context.person.progress(`starting MCP server ${server}…`, start);
        return mcpModuleInfo(catalog, (await context.host.hostModules()).hints.mcp ?? [], tools);
      }),
  });
}
