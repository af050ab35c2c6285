/**
 * Leave-one-set-out figures for the fitted intent model: for each training set, the model is fitted on all the
 * others (threshold chosen the same way) and that set is scored with the audit as the service runs it — the rules,
 * then the model where the rules stay below warn. What this shows is how much the model adds on a set it never saw,
 * and what it costs in benign holds there; the rules themselves were tuned on every set, so their part is not
 * held out (see tests/fixtures/audit-intent/README.md).
 * Run: npx vite-node tests/mcp/audit/scripts/loso-intent-model.ts
 */
import { probabilityOf } from "../../../../src/mcp/audit/intent/model.js";
import { fit, setRows, thresholdFor, TRAINING_SETS, type Example } from "../intent-model-fit.js";

const bySet = new Map(TRAINING_SETS.map((name) => [name, setRows(name)] as const));
for (const name of TRAINING_SETS) {
  const train: Example[] = TRAINING_SETS.filter((n) => n !== name).flatMap((n) => bySet.get(n) ?? []);
  const model = fit(train);
  const threshold = thresholdFor(train, model);
  const rows = bySet.get(name) ?? [];
  const byModel = (r: Example) => probabilityOf(r.x, model.weights, model.bias) >= threshold;
  const attacks = rows.filter((r) => r.y === 1);
  const benign = rows.filter((r) => r.y === 0);
  const rules = attacks.filter((r) => r.held === true).length;
  const caught = attacks.filter((r) => r.held === true || byModel(r)).length;
  const rulesHeld = benign.filter((r) => r.held === true).length;
  const held = benign.filter((r) => r.held === true || byModel(r)).length;
  console.log(`${name} held out (threshold ${threshold}): attacks ${caught}/${attacks.length} (rules alone ${rules}), benign held ${held}/${benign.length} (rules alone ${rulesHeld})`);
}
