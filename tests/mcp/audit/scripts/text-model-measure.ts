/**
 * A measurement of the frozen text model (text-model/configs.ts FROZEN) on sets it was not fitted on: fitted on every
 * spent set and tuning file, then each named set scored — rules alone, model alone, rules + model — attacks by family
 * and benign tools by server. Counts only (heldout-counts.ts says why). Wave 15 ran it once on heldout-v10; wave 16
 * on heldout-v11 and benign-voice-heldout.
 * Run: npx vite-node tests/mcp/audit/scripts/text-model-measure.ts <set> [<set> …]
 */
import { cachedExamples } from "../text-model/cache.js";
import { CONFIGS, decidedScore, FROZEN, rowOf } from "../text-model/configs.js";
import { MEASURED, setExamples } from "../text-model/examples.js";
import { FITTED_SETS } from "../text-model/fitted.js";
import { fitText } from "../text-model/train.js";

const names = process.argv.slice(2);
const unknown = names.filter((n) => !(MEASURED as readonly string[]).includes(n));
if (names.length === 0 || unknown.length > 0) throw new Error(`name sets to measure, of: ${MEASURED.join(", ")}`);
const training = cachedExamples(FITTED_SETS);
const config = CONFIGS[FROZEN.config];
if (config === undefined) throw new Error("no frozen config");
const model = fitText(training.map((e) => rowOf(e, config)), config.feat.buckets, config.fit);
const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} %`;
console.log(`text model ${FROZEN.config} at ${FROZEN.threshold}, fitted on ${training.length} examples`);
for (const name of names as Array<(typeof MEASURED)[number]>) {
  const scored = setExamples(name).map((e) => ({ e, byModel: decidedScore(e, model, config) >= FROZEN.threshold }));
  type Scored = (typeof scored)[number];
  const count = (list: readonly Scored[], f: (x: Scored) => boolean) => list.filter(f).length;
  const attacks = scored.filter((x) => x.e.y === 1);
  const benign = scored.filter((x) => x.e.y === 0);
  console.log(`\n== ${name}`);
  for (const family of [...new Set(attacks.map((x) => x.e.family))]) {
    const f = attacks.filter((x) => x.e.family === family);
    console.log(`  ${family}: rules ${count(f, (x) => x.e.held)}/${f.length}, model alone ${count(f, (x) => x.byModel)}, rules + model ${count(f, (x) => x.e.held || x.byModel)}`);
  }
  const ways: ReadonlyArray<readonly [string, (x: Scored) => boolean]> = [["rules alone", (x) => x.e.held], ["model alone", (x) => x.byModel], ["rules + model", (x) => x.e.held || x.byModel]];
  for (const [label, f] of ways) {
    const byServer: Record<string, number> = {};
    for (const b of benign.filter(f)) byServer[b.e.id.split("/")[0] ?? ""] = (byServer[b.e.id.split("/")[0] ?? ""] ?? 0) + 1;
    console.log(`${label}: attacks ${count(attacks, f)}/${attacks.length} (${pct(count(attacks, f), attacks.length)}), benign ${count(benign, f)}/${benign.length} (${pct(count(benign, f), benign.length)}) ${JSON.stringify(byServer)}`);
  }
}
