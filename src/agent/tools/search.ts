import { fitToBudget, SEARCH_ANSWER_TOKENS, searchCatalogs } from "../../mcp/search/index.js";
import type { ServerCatalog } from "../../mcp/service/index.js";
import { compactSignature, firstSentence } from "../../mcp/type-generator/index.js";
import { sweepCatalogs } from "./catalogs.js";
import { requireMcpForModel } from "./errors.js";
import type { AgentToolContext } from "./types.js";

/** Results module_info {query} gives when the model names no limit. */
export const SEARCH_DEFAULT_LIMIT = 8;

/**
 * Ranked matches across catalogs, each with the module to require and its compact signature (the
 * notation of module_info, so a match can be called without another look-up).
 */
export function searchToolsResults(catalogs: readonly ServerCatalog[], query: string, limit: number): Record<string, unknown>[] {
  return searchCatalogs(catalogs, query, limit).map(({ catalog, tool, score }) => {
    const annotations = tool.definition.annotations;
    const forTypes = catalog.forTypes().find((t) => t.jsName === tool.jsName);
    return {
      module: `host:${catalog.module}`,
      signature: forTypes === undefined ? tool.jsName : compactSignature(forTypes),
      summary: firstSentence(tool.description),
      ...(annotations?.readOnlyHint === true ? { readOnly: true } : annotations?.destructiveHint === false ? {} : { mayChangeThings: true }),
      score,
    };
  });
}

/**
 * module_info {query}: the best matches over every enabled, approved server (or, with `server`, that
 * one's functions only), within SEARCH_ANSWER_TOKENS.
 */
export async function searchAnswer(context: AgentToolContext, query: string, signal?: AbortSignal, server?: string): Promise<Record<string, unknown>> {
  const service = await requireMcpForModel(context.host);
  const { catalogs, unavailable } =
    server === undefined ? await sweepCatalogs(service, signal) : { catalogs: [await service.catalog(server, signal === undefined ? {} : { signal })], unavailable: [] };
  // The answer stays within SEARCH_ANSWER_TOKENS: the best matches first, then a count.
  const { kept: results, dropped } = fitToBudget(searchToolsResults(catalogs, query, SEARCH_DEFAULT_LIMIT), SEARCH_ANSWER_TOKENS);
  const note =
    results.length === 0 && dropped === 0
      ? `No function matches "${query}"; try other words or manage {action: "list"}.`
      : dropped > 0
        ? `${dropped} more match(es) did not fit in this answer; use more specific words.`
        : undefined;
  return { results, ...(unavailable.length > 0 ? { unavailable } : {}), ...(note === undefined ? {} : { note }) };
}
