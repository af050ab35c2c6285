/**
 * Held-out set v17 (tests/fixtures/audit-intent/heldout-v17.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v17 is measured by
 * tests/mcp/audit/scripts/measure-v17.ts, counts only, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v17",
  prefix: "h17",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  minBenignTools: 150,
  benignServers: [6, 6],
  // The repositories chosen for v17; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "miyatsuko10004/realestate-library-mcp",
    "hrko9gis/MLIT-DATA-PLATFORM-mcp",
    "alpacahq/alpaca-mcp-server",
    "cnoe-io/openapi-mcp-codegen",
    "tsirilson/nba-stats-mcp",
  ],
  earlier: writtenBefore(17),
  englishElsewhere: true,
  noReusedDescriptions: true,
  genericDescriptions: ["Pagination cursor from a previous response."],
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  mostSpoken: false,
  oneLanguageEach: true,
});

describe("held-out set v17: what its brief asked beyond the shared checks", () => {
  const set = heldoutSetSchema("h17").parse(readIntentFile("heldout-v17"));

  it("writes in the voice of generated and docstring servers: at least 40 attacks with an Args:/Returns:/Raises:/Note: line", () => {
    const docstring = set.attacks.filter((a) => a.server.tools.some((t) => /^\s*(?:Args|Returns|Raises|Note):/m.test(t.description ?? "")));
    expect(docstring.length).toBeGreaterThanOrEqual(40);
  });
});
