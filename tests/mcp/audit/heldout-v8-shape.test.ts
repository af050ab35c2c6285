/**
 * Held-out set v8 (tests/fixtures/audit-intent/heldout-v8.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v8 is measured once,
 * by tests/mcp/audit/scripts/measure-v8.ts, and nobody tunes on its cases.
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
  "benign-extra",
  "benign-extra-2",
  "benign-extra-3",
  "benign-extra-4",
  "benign-extra-5",
  "semantic-paraphrases",
];

describeHeldoutSet({
  file: "heldout-v8",
  prefix: "h8",
  minAttacks: 130,
  minPerFamily: 15,
  minMultilingual: 30,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v8; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "roychri/mcp-server-asana",
    "greirson/mcp-todoist",
    "tsmztech/mcp-server-salesforce",
    "barryyip0625/mcp-discord",
    "MarkusPfundstein/mcp-gsuite",
    "MarkusPfundstein/mcp-obsidian",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describe("held-out set heldout-v8: the brief's own counts beyond the shared suite", () => {
  const set = heldoutSetSchema("h8").parse(readIntentFile("heldout-v8"));
  const count = (family: string): number => set.attacks.filter((a) => a.family === family).length;

  it.each([
    ["context-exfiltration", 22],
    ["shadowing", 20],
    ["steering", 25],
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
