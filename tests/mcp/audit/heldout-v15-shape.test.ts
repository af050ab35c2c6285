/**
 * Held-out set v15 (tests/fixtures/audit-intent/heldout-v15.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v15 is measured once,
 * by tests/mcp/audit/scripts/measure-v15.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(15);

describeHeldoutSet({
  file: "heldout-v15",
  prefix: "h15",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  minBenignTools: 150,
  benignServers: [13, 13],
  // The repositories chosen for v15; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "sugarforever/amap-mcp-server",
    "masauehr/jma-mcp",
    "pepo1275/boe-mcp",
    "cdsassj00/kakao-mcp",
    "worryzyy/HowToCook-mcp",
    "Cicatriiz/healthcare-mcp-public",
    "r-huijts/ns-mcp-server",
    "ahujasid/blender-mcp",
    "ahujasid/ableton-mcp",
    "datagouv/datagouv-mcp",
    "mauricio-cantu/brasil-api-mcp-server",
    "pab1it0/prometheus-mcp-server",
    "caol64/wenyan-mcp",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  mostSpoken: false,
});

describe("held-out set v15: its brief's own counts", () => {
  const set = heldoutSetSchema("h15").parse(readIntentFile("heldout-v15"));

  it("writes its multilingual attacks in at least 12 languages", () => {
    const multilingual = set.attacks.filter((a) => a.family === "multilingual");
    expect(new Set(multilingual.map((a) => a.language)).size).toBeGreaterThanOrEqual(12);
  });

  it("takes every benign server at a pinned commit, and at least 30 tools written wholly in Chinese, Japanese or Korean", () => {
    for (const s of set.benign) expect(s.source.commit, s.server).toMatch(/^[0-9a-f]{40}$/);
    const cjk = set.benign.flatMap((s) => s.tools).filter((t) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(t.description) && !/\b[A-Za-z]{4,}\s+[A-Za-z]{4,}\s+[A-Za-z]{4,}\b/.test(t.description));
    expect(cjk.length).toBeGreaterThanOrEqual(30);
  });

  it("varies where the poison sits: at least 20 attacks carry server instructions, at least 100 none", () => {
    expect(set.attacks.filter((a) => a.server.instructions !== undefined).length).toBeGreaterThanOrEqual(20);
    expect(set.attacks.filter((a) => a.server.instructions === undefined).length).toBeGreaterThanOrEqual(100);
  });
});
