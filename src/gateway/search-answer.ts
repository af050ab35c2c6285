import { fitToBudget, SEARCH_ANSWER_TOKENS, type CatalogMatch } from "../mcp/search/index.js";
import { firstSentence } from "../mcp/type-generator/index.js";

export interface SearchAnswer {
  readonly results: readonly { tool: string; module: string; signature: string; description: string; score: number; matched: readonly string[] }[];
  readonly more?: string;
}

/**
 * What search_tools gives a client's model: per match the tool's full name, the module to require,
 * its one-line signature and first sentence. However large the limit, the answer stays within
 * SEARCH_ANSWER_TOKENS: the best matches, then how many more did not fit.
 */
export function searchAnswer(ranked: readonly CatalogMatch[], maxTokens = SEARCH_ANSWER_TOKENS): SearchAnswer {
  const { kept, dropped } = fitToBudget(
    ranked.map(({ catalog, tool, score, matched }) => ({
      tool: `${catalog.server}.${tool.originalName}`,
      module: `host:${catalog.module}`,
      signature: catalog.signature(tool),
      description: firstSentence(tool.description, 300),
      score,
      matched,
    })),
    maxTokens,
  );
  return { results: kept, ...(dropped > 0 ? { more: `${dropped} more match(es) did not fit in this answer; use more specific words.` } : {}) };
}
