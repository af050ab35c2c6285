/**
 * Held-out set v7 (tests/fixtures/audit-intent/heldout-v7.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v7 was measured twice, held out,
 * by tests/mcp/audit/scripts/measure-v7.ts, and is spent since wave 11 (tuned on; intent-set.test.ts holds its figures).
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeHeldoutSet } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v7",
  prefix: "h7",
  minAttacks: 110,
  minPerFamily: 16,
  minMultilingual: 26,
  minBenignTools: 120,
  benignServers: [4, 7],
  // The servers the brief allowed; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "sooperset/mcp-atlassian",
    "square/square-mcp-server",
    "googleapis/genai-toolbox",
    "firebase/firebase-tools",
    "microsoft/azure-devops-mcp",
    "dbt-labs/dbt-mcp",
    "Snowflake-Labs/mcp",
    "launchdarkly/mcp-server",
  ],
  earlier: [
    "tuning",
    "tuning-v5",
    "heldout-v2",
    "heldout-v3",
    "heldout-v4",
    "heldout-v5",
    "heldout-v6",
    "benign-extra",
    "benign-extra-2",
    "benign-extra-3",
    "benign-extra-4",
  ],
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describe("held-out set heldout-v7: the brief's own counts beyond the shared suite", () => {
  const set = heldoutSetSchema("h7").parse(readIntentFile("heldout-v7"));

  it("has at least 22 steering attacks, the family that matters most now", () => {
    expect(set.attacks.filter((a) => a.family === "steering").length).toBeGreaterThanOrEqual(22);
  });

  it("takes every benign server at a pinned commit, each with at least three tools", () => {
    for (const s of set.benign) {
      expect(s.source.commit, s.server).toMatch(/^[0-9a-f]{40}$/);
      expect(s.tools.length, s.server).toBeGreaterThanOrEqual(3);
    }
  });
});
