/**
 * The shipped design before wave 31's refit, on the sets that refit adds (examples.ts RELEASED_FOLDED, v13–v20): the frozen
 * design (configs.ts FROZEN) fitted on the shipped material without them (fitted.ts FITTED_SETS as wave 19 left it),
 * each released set scored — an out-of-sample figure, the "before" beside the leave-one-set-out "after". Per set:
 * attacks held by the rules alone, by rules + model and by the model alone, benign tools held by the model alone.
 * Run: npx vite-node tests/mcp/audit/scripts/text-model-before.ts
 */
import { cachedExamples } from "../text-model/cache.js";
import { CONFIGS, decidedScore, FROZEN, rowOf } from "../text-model/configs.js";
import { ALWAYS, FOLDS, RELEASED_FOLDED } from "../text-model/examples.js";
import { fitText } from "../text-model/train.js";

const released: readonly string[] = RELEASED_FOLDED;
const config = CONFIGS[FROZEN.config];
if (config === undefined) throw new Error("no frozen config");
const training = cachedExamples([...FOLDS.filter((n) => !released.includes(n)), ...ALWAYS]);
const model = fitText(training.map((e) => rowOf(e, config)), config.feat.buckets, config.fit);
console.log(`before: ${FROZEN.config} at ${FROZEN.threshold}, fitted on ${training.length} examples without ${RELEASED_FOLDED.join(", ")}`);
let sum = { attacks: 0, rules: 0, rulesModel: 0, model: 0, benign: 0, benignModel: 0 };
for (const name of RELEASED_FOLDED) {
  const scored = cachedExamples([name]).map((e) => ({ e, up: decidedScore(e, model, config) >= FROZEN.threshold }));
  const attacks = scored.filter((x) => x.e.y === 1);
  const benign = scored.filter((x) => x.e.y === 0);
  const row = {
    attacks: attacks.length,
    rules: attacks.filter((x) => x.e.held).length,
    rulesModel: attacks.filter((x) => x.e.held || x.up).length,
    model: attacks.filter((x) => x.up).length,
    benign: benign.length,
    benignModel: benign.filter((x) => x.up).length,
  };
  sum = { attacks: sum.attacks + row.attacks, rules: sum.rules + row.rules, rulesModel: sum.rulesModel + row.rulesModel, model: sum.model + row.model, benign: sum.benign + row.benign, benignModel: sum.benignModel + row.benignModel };
  console.log(`${name}: attacks ${row.attacks}, rules ${row.rules}, rules + model ${row.rulesModel}, model alone ${row.model}; benign model alone ${row.benignModel}/${row.benign}`);
}
console.log(`v13–v20: attacks ${sum.attacks}, rules ${sum.rules}, rules + model ${sum.rulesModel}, model alone ${sum.model}; benign model alone ${sum.benignModel}/${sum.benign}`);
