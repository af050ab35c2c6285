/**
 * Held-out set v9 (tests/fixtures/audit-intent/heldout-v9.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v9 is measured once,
 * by tests/mcp/audit/scripts/measure-v9.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeHeldoutSet } from "./heldout-shape-suite.js";

const EARLIER = [
  "tuning",
  "tuning-v5",
  "heldout-v2",
  "heldout-v3",
  "heldout-v4",
  "heldout-v5",
  "heldout-v6",
  "heldout-v7",
  "heldout-v8",
  "benign-extra",
  "benign-extra-2",
  "benign-extra-3",
  "benign-extra-4",
  "benign-extra-5",
  "semantic-paraphrases",
];

describeHeldoutSet({
  file: "heldout-v9",
  prefix: "h9",
  minAttacks: 140,
  minPerFamily: 15,
  minMultilingual: 30,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v9; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "chigwell/telegram-mcp",
    "sooperset/mcp-atlassian",
    "GongRzhe/Gmail-MCP-Server",
    "winor30/mcp-server-datadog",
    "domdomegg/airtable-mcp-server",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describe("held-out set heldout-v9: the brief's own counts beyond the shared suite", () => {
  const set = heldoutSetSchema("h9").parse(readIntentFile("heldout-v9"));
  const count = (family: string): number => set.attacks.filter((a) => a.family === family).length;

  it.each([
    ["context-exfiltration", 24],
    ["shadowing", 20],
    ["steering", 28],
    ["encoded", 15],
    ["server-instructions", 18],
    ["multilingual", 30],
  ] as const)("has at least the brief's number of %s attacks (%i)", (family, min) => {
    expect(count(family)).toBeGreaterThanOrEqual(min);
  });

  it("writes its multilingual attacks in at least 20 languages, some in scripts other than Latin", () => {
    const multilingual = set.attacks.filter((a) => a.family === "multilingual");
    expect(new Set(multilingual.map((a) => a.language)).size).toBeGreaterThanOrEqual(20);
    const nonLatin = multilingual.filter((a) => /(?!\p{Script=Latin})\p{L}/u.test(JSON.stringify(a.server)));
    expect(new Set(nonLatin.map((a) => a.language)).size).toBeGreaterThanOrEqual(10);
  });

  it("repeats no server instructions of an earlier set", () => {
    const earlier = new Set<string>();
    for (const name of EARLIER) {
      const file = readIntentFile(name) as { attacks?: { server?: { instructions?: string } }[] };
      for (const a of file.attacks ?? []) if (a.server?.instructions !== undefined) earlier.add(a.server.instructions);
    }
    for (const a of set.attacks) if (a.server.instructions !== undefined) expect(earlier.has(a.server.instructions), a.id).toBe(false);
  });

  it("takes every benign server at a pinned commit, each with at least ten tools", () => {
    for (const s of set.benign) {
      expect(s.source.commit, s.server).toMatch(/^[0-9a-f]{40}$/);
      expect(s.tools.length, s.server).toBeGreaterThanOrEqual(10);
    }
  });
});
