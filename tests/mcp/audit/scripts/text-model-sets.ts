/**
 * The whole audit (rules + the shipped text model, no second opinion) on every spent set the text model is fitted on:
 * attacks held and benign tools held, and how many of each only the text model holds. In-sample figures (the model
 * is fitted on these sets): what a refit changes, not what it would do on new text. Never reads MEASURED sets.
 * Run: npx vite-node tests/mcp/audit/scripts/text-model-sets.ts
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { verdictOf, type Finding } from "../../../../src/mcp/audit/index.js";
import { intentSetDir, isFlagged, loadHalf, scoreAttack, scoreBenign, type HalfName } from "../intent-harness.js";
import { ALWAYS, FOLDS, MEASURED } from "../text-model/examples.js";

const byModelOnly = (findings: readonly Finding[]): boolean => isFlagged(verdictOf(findings)) && !isFlagged(verdictOf(findings.filter((f) => f.rule !== "intent-text-model")));
const names = [...FOLDS, ...ALWAYS].filter((n) => n !== "corpus" && !(MEASURED as readonly string[]).includes(n)) as HalfName[];
for (const name of names) {
  if (!existsSync(path.join(intentSetDir, `${name}.json`))) continue;
  const half = loadHalf(name);
  const attacks = half.attacks.map((c) => scoreAttack(c));
  const benign = scoreBenign(half);
  const held = (list: typeof attacks) => list.filter((s) => isFlagged(s.verdict)).length;
  const only = (list: typeof attacks) => list.filter((s) => byModelOnly(s.findings)).length;
  console.log(`${name}: attacks ${held(attacks)}/${attacks.length} (text model only ${only(attacks)}), benign ${held(benign)}/${benign.length} (text model only ${only(benign)})`);
}
