import { createHash } from "node:crypto";
import { getEncoding } from "js-tiktoken";
import { beforeAll, describe, expect, it } from "vitest";
import { searchToolsResults } from "../../../src/agent/tools/index.js";
import { searchAnswer } from "../../../src/gateway/search-answer.js";
import { catalogIndex, corpusView, fitToBudget, SEARCH_ANSWER_TOKENS, searchCatalogs } from "../../../src/mcp/search/index.js";
import type { ServerCatalog } from "../../../src/mcp/service/index.js";
// @ts-expect-error -- a plain .mjs fixture generator, shared with bench/ (no types)
import { discoveryCorpus } from "../../fixtures/discovery/generate.mjs";
import { corpusCatalogs, QUERIES, recallAt } from "./discovery-eval.js";

// Issue 15: discovery over 10,000 tools (200 servers). The held-out queries were written with the
// rest before the ranker was tuned and never looked at while tuning (tests/fixtures/discovery).
describe("search_tools over 10,000 tools", () => {
  let catalogs: ServerCatalog[];
  beforeAll(() => {
    catalogs = corpusCatalogs();
  });

  it("searches a deterministic corpus of 200 servers and 10,000 tools with realistic near-duplicates", () => {
    expect(catalogs).toHaveLength(200);
    expect(catalogs.reduce((n, c) => n + c.tools.length, 0)).toBe(10_000);
    const digest = (corpus: unknown) => createHash("sha256").update(JSON.stringify(corpus)).digest("hex");
    expect(digest(discoveryCorpus())).toBe(digest(discoveryCorpus()));
    // Many servers answer the same verbs: a query must be told apart from lookalikes.
    const searchTools = catalogs.flatMap((c) => c.tools.filter((t) => /^search|search$/i.test(t.jsName)));
    expect(searchTools.length).toBeGreaterThan(500);
    expect(catalogs.filter((c) => c.tools.some((t) => /issue/i.test(t.originalName))).length).toBeGreaterThan(10);
  });

  it("finds the labelled tool in the top 5 for at least 95% of the held-out queries", () => {
    const heldOut = QUERIES.filter((q) => q.split === "held-out");
    expect(heldOut.length).toBeGreaterThanOrEqual(40);
    const report = recallAt(catalogs, heldOut, 5);
    expect(report.misses.length, JSON.stringify(report.misses, null, 1)).toBeLessThanOrEqual(Math.floor(heldOut.length * 0.05));
    expect(report.recall).toBeGreaterThanOrEqual(0.95);
  });

  it("keeps the tuning queries above 95% too (a ranking change that only fits the held-out part shows here)", () => {
    expect(recallAt(catalogs, QUERIES.filter((q) => q.split === "tuning"), 5).recall).toBeGreaterThanOrEqual(0.95);
  });

  it("builds each catalog's index once per listing and the merged corpus once per set of catalogs", () => {
    const first = catalogs.map(catalogIndex);
    expect(catalogs.map(catalogIndex).every((index, i) => index === first[i])).toBe(true);
    expect(corpusView(first)).toBe(corpusView(catalogs.map(catalogIndex)));
    expect(first[0]?.docs).toHaveLength(catalogs[0]?.tools.length ?? -1);
  });

  it("answers within 1,200 o200k_base tokens however large the limit, best matches first, saying how many more", () => {
    const encoder = getEncoding("o200k_base");
    const tokens = (value: unknown) => encoder.encode(JSON.stringify(value)).length;
    for (const { query } of QUERIES.filter((q) => q.split === "held-out")) {
      const ranked = searchCatalogs(catalogs, query, 100);
      const gateway = searchAnswer(ranked);
      expect(tokens(gateway)).toBeLessThanOrEqual(SEARCH_ANSWER_TOKENS);
      expect(gateway.results[0]?.tool).toBe(`${ranked[0]?.catalog.server}.${ranked[0]?.tool.originalName}`);
      expect(gateway.results[0]?.signature).toMatch(/\(/);
      if (gateway.results.length < ranked.length) expect(gateway.more).toContain(`${ranked.length - gateway.results.length} more`);
      const agent = fitToBudget(searchToolsResults(catalogs, query, 50), SEARCH_ANSWER_TOKENS);
      expect(tokens({ results: agent.kept })).toBeLessThanOrEqual(SEARCH_ANSWER_TOKENS);
      expect(agent.kept.length).toBeGreaterThanOrEqual(5);
    }
    // The default limits (10 in the gateway, 8 for the agent) fit whole.
    expect(searchAnswer(searchCatalogs(catalogs, "create an issue on github", 10)).more).toBeUndefined();
  });
});
