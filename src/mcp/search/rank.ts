import { searchCorpus, type SearchHit } from "./bm25.js";
import { CorpusView } from "./corpus-view.js";
import { SearchIndex, type SearchableTool } from "./search-index.js";

export type RankedTool<T extends SearchableTool = SearchableTool> = SearchHit<T>;

export interface RankOptions {
  /** Most results returned (default 10). */
  readonly limit?: number;
}

/**
 * Tools ranked by how well they match a free-text query, best first (BM25F, see bm25.ts). Builds a
 * throwaway index: for a catalog searched again and again, searchCatalogs keeps one per listing.
 */
export function rankTools<T extends SearchableTool>(query: string, tools: readonly T[], options: RankOptions = {}): RankedTool<T>[] {
  return searchCorpus(new CorpusView([new SearchIndex(tools)]), query, options.limit ?? 10);
}
