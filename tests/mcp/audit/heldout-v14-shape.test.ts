/**
 * Held-out set v14 (tests/fixtures/audit-intent/heldout-v14.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v14 is measured once,
 * by tests/mcp/audit/scripts/measure-v14.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(14);

describeHeldoutSet({
  file: "heldout-v14",
  prefix: "h14",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  minBenignTools: 150,
  benignServers: [8, 13],
  // The repositories chosen for v14; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "baidu-maps/mcp",
    "Koomook/data-go-mcp-servers",
    "yzfly/douyin-mcp-server",
    "hangwin/mcp-chrome",
    "blazickjp/arxiv-mcp-server",
    "haris-musa/excel-mcp-server",
    "LaurieWired/GhidraMCP",
    "GongRzhe/Office-Word-MCP-Server",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  mostSpoken: false,
});

describe("held-out set v14: its brief's own counts", () => {
  const set = heldoutSetSchema("h14").parse(readIntentFile("heldout-v14"));

  it("writes its multilingual attacks in at least 12 languages", () => {
    const multilingual = set.attacks.filter((a) => a.family === "multilingual");
    expect(new Set(multilingual.map((a) => a.language)).size).toBeGreaterThanOrEqual(12);
  });

  it("takes every benign server at a pinned commit, and at least 30 tools whose descriptions are not English only", () => {
    for (const s of set.benign) expect(s.source.commit, s.server).toMatch(/^[0-9a-f]{40}$/);
    const nonEnglish = set.benign.flatMap((s) => s.tools).filter((t) => /(?!\p{Script=Latin})\p{L}|\b(?:para|los|las|del)\b/u.test(t.description));
    expect(nonEnglish.length).toBeGreaterThanOrEqual(30);
  });

  it("varies where the poison sits: at least 40 attacks carry server instructions and at least 40 carry none", () => {
    expect(set.attacks.filter((a) => a.server.instructions !== undefined).length).toBeGreaterThanOrEqual(40);
    expect(set.attacks.filter((a) => a.server.instructions === undefined).length).toBeGreaterThanOrEqual(40);
  });
});
