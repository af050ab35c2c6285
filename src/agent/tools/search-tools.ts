import { tool } from "ai";
import { z } from "zod";
import { fitToBudget, SEARCH_ANSWER_TOKENS, searchCatalogs } from "../../mcp/search/index.js";
import type { ServerCatalog } from "../../mcp/service/index.js";
import { firstSentence } from "../../mcp/type-generator/index.js";
import { sweepCatalogs } from "./catalogs.js";
import { modelSchema } from "./model-schema.js";
import { guardedTool } from "./output.js";
import type { AgentToolContext } from "./types.js";

export const searchToolsInput = z.object({
  query: z.string().min(1).describe("What you want to do, in a few words."),
  limit: z.number().int().min(1).max(50).optional().describe("Most results (default 8)."),
});

/** Ranked matches across catalogs, each with the module to require and its one-line signature. */
export function searchToolsResults(catalogs: readonly ServerCatalog[], query: string, limit: number): Record<string, unknown>[] {
  return searchCatalogs(catalogs, query, limit).map(({ catalog, tool, score }) => {
    const annotations = tool.definition.annotations;
    return {
      module: `host:${catalog.module}`,
      signature: catalog.signature(tool),
      summary: firstSentence(tool.description),
      ...(annotations?.readOnlyHint === true ? { readOnly: true } : annotations?.destructiveHint === false ? {} : { mayChangeThings: true }),
      score,
    };
  });
}

export function searchToolsTool(context: AgentToolContext) {
  return tool({
    description: "Search the functions of every enabled MCP server; returns ranked signatures with the module to require.",
    inputSchema: modelSchema(searchToolsInput),
    execute: async ({ query, limit }, { abortSignal }) =>
      guardedTool(context.host, async () => {
        const service = await context.host.requireMcp();
        const { catalogs, unavailable } = await sweepCatalogs(service, abortSignal);
        // The answer stays within SEARCH_ANSWER_TOKENS however large the limit: the best matches first, then a count.
        const { kept: results, dropped } = fitToBudget(searchToolsResults(catalogs, query, limit ?? 8), SEARCH_ANSWER_TOKENS);
        const note =
          results.length === 0 && dropped === 0
            ? `No function matches "${query}"; try other words or manage_mcp {action: "list"}.`
            : dropped > 0
              ? `${dropped} more match(es) did not fit in this answer; use more specific words.`
              : undefined;
        return { results, ...(unavailable.length > 0 ? { unavailable } : {}), ...(note === undefined ? {} : { note }) };
      }),
  });
}
