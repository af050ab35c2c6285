/**
 * Prints a held-out set's figures with the rules alone and with the semantic stage beside them (the real encoder in a
 * worker thread, the shipped weights), counts only (heldout-counts.ts says why: no case ids, texts or findings).
 * Run by the lead, once per set: npx vite-node tests/mcp/audit/scripts/measure-semantic.ts -- v6
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { verdictOf, type Finding } from "../../../../src/mcp/audit/index.js";
import { SemanticStage } from "../../../../src/mcp/audit/semantic/index.js";
import { intentSetDir, isFlagged, scoreAttack, scoreBenign, type IntentHalf } from "../intent-harness.js";

const name = process.argv.slice(2).find((arg) => arg !== "--");
if (name === undefined || !/^v\d+$/.test(name)) throw new Error("usage: measure-semantic.ts -- v<N> (a held-out set in tests/fixtures/audit-intent)");
const half = JSON.parse(readFileSync(path.join(intentSetDir, `heldout-${name}.json`), "utf8")) as IntentHalf;
const stage = new SemanticStage({ onUnavailable: (reason) => console.error(`semantic stage unavailable: ${reason}`) });
const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} %`;

try {
  const families = new Map<string, { rules: number; both: number; total: number }>();
  for (const c of half.attacks) {
    const semantic: Finding[] = await stage.review({ tools: c.server.tools, instructions: c.server.instructions });
    const rules = scoreAttack(c);
    const f = families.get(c.family) ?? { rules: 0, both: 0, total: 0 };
    f.total += 1;
    if (isFlagged(rules.verdict)) f.rules += 1;
    if (isFlagged(verdictOf([...rules.findings, ...semantic]))) f.both += 1;
    families.set(c.family, f);
  }
  let benignRules = 0;
  let benignBoth = 0;
  let benignTotal = 0;
  const rulesByTool = new Map(scoreBenign(half).map((s) => [s.id, s] as const));
  for (const s of half.benign) {
    const semantic = await stage.review({ tools: s.tools });
    for (const tool of s.tools) {
      const rules = rulesByTool.get(`${s.server}/${tool.name}`);
      if (rules === undefined) continue;
      benignTotal += 1;
      if (isFlagged(rules.verdict)) benignRules += 1;
      if (isFlagged(verdictOf([...rules.findings, ...semantic.filter((f) => f.location.tool === tool.name)]))) benignBoth += 1;
    }
  }
  const sum = (pick: (f: { rules: number; both: number }) => number): number => [...families.values()].reduce((n, f) => n + pick(f), 0);
  console.log(`held-out ${name}: rules alone / rules + semantic stage`);
  for (const [family, f] of families) console.log(`  ${family}: ${f.rules}/${f.total} -> ${f.both}/${f.total}`);
  console.log(`  attacks flagged: ${sum((f) => f.rules)}/${half.attacks.length} (${pct(sum((f) => f.rules), half.attacks.length)}) -> ${sum((f) => f.both)}/${half.attacks.length} (${pct(sum((f) => f.both), half.attacks.length)})`);
  console.log(`  benign flagged: ${benignRules}/${benignTotal} (${pct(benignRules, benignTotal)}) -> ${benignBoth}/${benignTotal} (${pct(benignBoth, benignTotal)})`);
} finally {
  await stage.close();
}
