import { tool } from "ai";
import { z } from "zod";
import { rankTools } from "../../mcp/search/index.js";
import type { CatalogTool, ServerCatalog } from "../../mcp/service/index.js";
import { firstSentence, formatToolSignature } from "../../mcp/type-generator/index.js";
import { sweepCatalogs } from "./catalogs.js";
import { guardedTool } from "./output.js";
import type { AgentToolContext } from "./types.js";

export const searchToolsInput = z.object({
  query: z.string().min(1).describe("What you want to do, in a few words."),
  limit: z.number().int().min(1).max(50).optional().describe("Most results (default 8)."),
});

interface Candidate {
  readonly server: string;
  readonly name: string;
  readonly description: string;
  readonly catalog: ServerCatalog;
  readonly tool: CatalogTool;
}

/** Ranked matches across catalogs, each with the module to require and its one-line signature. */
export function searchCatalogs(catalogs: readonly ServerCatalog[], query: string, limit: number): Record<string, unknown>[] {
  const candidates: Candidate[] = catalogs.flatMap((catalog) => catalog.tools.map((t) => ({ server: catalog.server, name: t.jsName, description: t.description, catalog, tool: t })));
  return rankTools(query, candidates, { limit }).map(({ tool: c, score }) => {
    const forTypes = c.catalog.forTypes().find((t) => t.jsName === c.tool.jsName);
    const annotations = c.tool.definition.annotations;
    return {
      module: `host:${c.catalog.module}`,
      signature: forTypes === undefined ? c.name : formatToolSignature(forTypes),
      summary: firstSentence(c.description),
      ...(annotations?.readOnlyHint === true ? { readOnly: true } : annotations?.destructiveHint === false ? {} : { mayChangeThings: true }),
      score,
    };
  });
}

export function searchToolsTool(context: AgentToolContext) {
  return tool({
    description: "Search the functions of every enabled MCP server; returns ranked signatures with the module to require.",
    inputSchema: searchToolsInput,
    execute: async ({ query, limit }, { abortSignal }) =>
      guardedTool(context.host, async () => {
        const service = await context.host.requireMcp();
        const { catalogs, unavailable } = await sweepCatalogs(service, abortSignal);
        const results = searchCatalogs(catalogs, query, limit ?? 8);
        return { results, ...(unavailable.length > 0 ? { unavailable } : {}), ...(results.length === 0 ? { note: `No function matches "${query}"; try other words or list_mcp_servers.` } : {}) };
      }),
  });
}
