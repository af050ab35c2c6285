import type { CatalogTool, ServerCatalog } from "../service/index.js";
import { rankTools } from "./rank.js";

export interface CatalogMatch {
  readonly catalog: ServerCatalog;
  readonly tool: CatalogTool;
  readonly score: number;
  readonly matched: readonly string[];
}

/** The trusted tools of several servers ranked for a query: what search_tools answers in every face. */
export function searchCatalogs(catalogs: readonly ServerCatalog[], query: string, limit: number): CatalogMatch[] {
  const candidates = catalogs.flatMap((catalog) => catalog.tools.map((tool) => ({ server: catalog.server, name: tool.jsName, description: tool.description, catalog, tool })));
  return rankTools(query, candidates, { limit }).map(({ tool: candidate, score, matched }) => ({ catalog: candidate.catalog, tool: candidate.tool, score, matched }));
}
