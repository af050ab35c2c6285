/**
 * Held-out set v13 (tests/fixtures/audit-intent/heldout-v13.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v13 is measured once,
 * by tests/mcp/audit/scripts/measure-v13.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeBriefCounts, describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(13);

describeHeldoutSet({
  file: "heldout-v13",
  prefix: "h13",
  minAttacks: 120,
  minPerFamily: 12,
  minMultilingual: 25,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v13; none of them appears in an earlier set or the tuning material.
  allowedRepos: ["wegotdocs/open-mcp", "danila-matveev/wildberries-mcp-server", "theYahia/amocrm-mcp"],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describeBriefCounts({ file: "heldout-v13", prefix: "h13", earlier: EARLIER, familyMinimums: [["context-exfiltration", 18], ["shadowing", 18], ["steering", 20], ["encoded", 12], ["server-instructions", 12], ["multilingual", 25]] });

describe("held-out set v13: its brief's benign languages", () => {
  const set = heldoutSetSchema("h13").parse(readIntentFile("heldout-v13"));
  const tools = (server: string) => set.benign.find((s) => s.server === server)?.tools ?? [];

  it("takes at least 30 tools from servers whose descriptions are neither English nor Chinese, Japanese or Korean", () => {
    const cyrillic = tools("wildberries").filter((t) => /\p{Script=Cyrillic}/u.test(t.description));
    const portuguese = tools("portal-transparencia").filter((t) => /\b(Consulta|Retorna|por|dos|das)\b/.test(t.description));
    expect(cyrillic.length).toBeGreaterThanOrEqual(20);
    expect(portuguese.length).toBeGreaterThanOrEqual(15);
    expect(tools("wildberries").length + tools("portal-transparencia").length).toBeGreaterThanOrEqual(30);
    expect(JSON.stringify(set.benign)).not.toMatch(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u);
  });
});
