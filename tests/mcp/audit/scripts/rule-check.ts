/**
 * One line per spent, training and benign set for a rule round: attacks held and benign tools held by the whole audit
 * (rules + shipped text model, no second opinion), with the ids of every benign tool held, so a rule change can be
 * compared before → after with `diff`. Covers the sets the text model is fitted on (FOLDS and ALWAYS), the held-out sets
 * released for tuning in waves 30–33 (RELEASED) and the public
 * corpus (guardbench cases and real-server-tool-listings). Never loads a MEASURED set.
 * Run: npx vite-node tests/mcp/audit/scripts/rule-check.ts > before.txt
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { verdictOf } from "../../../../src/mcp/audit/index.js";
import { auditCase, loadCases, loadListings } from "../guardbench-harness.js";
import { intentSetDir, isFlagged, loadHalf, scoreAttack, scoreBenign, type HalfName } from "../intent-harness.js";
import { ALWAYS, FOLDS, MEASURED, RELEASED } from "../text-model/examples.js";

// heldout-v23 (being written blind in wave 33) is refused by name before it even exists.
const REFUSED = new Set<string>([...MEASURED, "benign-voice-heldout", "heldout-v23"]);
const names = [...new Set([...FOLDS, ...ALWAYS, ...RELEASED])].filter((n) => n !== "corpus" && !REFUSED.has(n)) as HalfName[];
for (const name of names) {
  if (!existsSync(path.join(intentSetDir, `${name}.json`))) continue;
  const half = loadHalf(name);
  const held = half.attacks.filter((c) => isFlagged(scoreAttack(c).verdict)).length;
  const benign = scoreBenign(half);
  const fps = benign.filter((b) => isFlagged(b.verdict)).map((b) => b.id);
  console.log(`${name}: attacks ${held}/${half.attacks.length}, benign ${fps.length}/${benign.length}${fps.length > 0 ? ` [${fps.join(", ")}]` : ""}`);
}

const rows = loadCases().map((c) => ({ c, outcome: auditCase(c) }));
const attacks = rows.filter((r) => r.c.bucket !== "benign");
const caught = attacks.filter((r) => isFlagged(r.outcome.kind === "definition" ? verdictOf(r.outcome.findings) : r.outcome.verdict)).length;
const fps: string[] = [];
let benign = 0;
for (const r of rows.filter((x) => x.c.bucket === "benign" && x.outcome.kind === "definition")) {
  for (const t of r.outcome.kind === "definition" ? r.outcome.tools : []) {
    benign++;
    if (isFlagged(verdictOf(r.outcome.findings.filter((f) => f.location.tool === t.name)))) fps.push(`${r.c.id}/${t.name}`);
  }
}
const listings = { attacks: [], benign: Object.entries(loadListings()).map(([server, tools]) => ({ server, source: { repo: "", commit: "", path: "" }, tools })) };
for (const s of scoreBenign(listings)) {
  benign++;
  if (isFlagged(s.verdict)) fps.push(`listing:${s.id}`);
}
console.log(`corpus: attacks ${caught}/${attacks.length}, benign ${fps.length}/${benign}${fps.length > 0 ? ` [${fps.join(", ")}]` : ""}`);
