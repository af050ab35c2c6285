// Recall of search_tools over the 10,000-tool discovery corpus (tests/fixtures/discovery): shared by
// discovery.test.ts and bench/discovery.mjs's source of truth for what "a hit" means.
import { ServerCatalog } from "../../../src/mcp/service/index.js";
import { CompiledTypesCache } from "../../../src/mcp/type-generator/index.js";
import type { Tool } from "@modelcontextprotocol/client";
import { searchCatalogs } from "../../../src/mcp/search/index.js";
// @ts-expect-error -- a plain .mjs fixture generator, shared with bench/ (no types)
import { discoveryCorpus } from "../../fixtures/discovery/generate.mjs";
import queriesFile from "../../fixtures/discovery/queries.json" with { type: "json" };

export interface LabelledQuery {
  readonly query: string;
  readonly expect: readonly string[];
  readonly split: "tuning" | "held-out";
}

export const QUERIES = queriesFile.queries as LabelledQuery[];

export function corpusCatalogs(): ServerCatalog[] {
  const cache = new CompiledTypesCache();
  return (discoveryCorpus() as { server: string; tools: Tool[] }[]).map(
    ({ server, tools }) => new ServerCatalog({ server, description: undefined, instructions: undefined, trusted: tools, held: [], dropped: [], hiddenByFilters: [], unmatchedFilters: [] }, cache),
  );
}

export interface RecallReport {
  readonly recall: number;
  readonly hits: number;
  readonly total: number;
  readonly misses: { query: string; expect: readonly string[]; got: string[] }[];
}

export function recallAt(catalogs: readonly ServerCatalog[], queries: readonly LabelledQuery[], k = 5): RecallReport {
  const misses: RecallReport["misses"] = [];
  for (const q of queries) {
    const got = searchCatalogs(catalogs, q.query, k).map((m) => `${m.catalog.server}.${m.tool.originalName}`);
    if (!got.some((g) => q.expect.includes(g))) misses.push({ query: q.query, expect: q.expect, got });
  }
  return { recall: (queries.length - misses.length) / queries.length, hits: queries.length - misses.length, total: queries.length, misses };
}
