import type { CatalogTool, ServerCatalog } from "../service/index.js";
import { searchCorpus } from "./bm25.js";
import { corpusView } from "./corpus-view.js";
import { SearchIndex, type SearchableTool } from "./search-index.js";

export interface CatalogMatch {
  readonly catalog: ServerCatalog;
  readonly tool: CatalogTool;
  readonly score: number;
  readonly matched: readonly string[];
}

interface CatalogDocument extends SearchableTool {
  readonly catalog: ServerCatalog;
  readonly entry: CatalogTool;
}

/** One index per catalog: a catalog is one immutable listing, cached by the service until the listing changes. */
const indexes = new WeakMap<ServerCatalog, SearchIndex<CatalogDocument>>();

/** Parameter names, and what their descriptions and enum values say ("REQUEST_CHANGES" is how a review is asked for). */
function parameterParts(tool: CatalogTool): { parameters: string[]; parameterText: string } {
  const properties = (tool.definition.inputSchema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return { parameters: [], parameterText: "" };
  const entries = Object.entries(properties as Record<string, unknown>);
  const text = entries.map(([, schema]) => {
    if (typeof schema !== "object" || schema === null) return "";
    const { description, enum: values } = schema as { description?: unknown; enum?: unknown };
    return [typeof description === "string" ? description : "", ...(Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : [])].join(" ");
  });
  return { parameters: entries.map(([name]) => name), parameterText: text.join(" ") };
}

export function catalogIndex(catalog: ServerCatalog): SearchIndex<CatalogDocument> {
  let index = indexes.get(catalog);
  if (index === undefined) {
    index = new SearchIndex(
      catalog.tools.map((entry) => ({ server: catalog.server, name: entry.jsName, originalName: entry.originalName, description: entry.description, ...parameterParts(entry), catalog, entry })),
    );
    indexes.set(catalog, index);
  }
  return index;
}

/** The trusted tools of several servers ranked for a query: what search_tools answers in every face. */
export function searchCatalogs(catalogs: readonly ServerCatalog[], query: string, limit: number): CatalogMatch[] {
  return searchCorpus(corpusView(catalogs.map(catalogIndex)), query, limit).map(({ tool, score, matched }) => ({ catalog: tool.catalog, tool: tool.entry, score, matched }));
}
