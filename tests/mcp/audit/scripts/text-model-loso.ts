/**
 * Leave-one-set-out for the text model (tests/mcp/audit/text-model/): for each spent held-out set v2…v9 the model is
 * fitted on every other spent set and tuning file and scored on the one left out. Prints, per left-out set and
 * threshold: attacks the model alone holds, benign tools it alone holds, and rules + model.
 * Run: npx vite-node tests/mcp/audit/scripts/text-model-loso.ts [--config name]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { ALWAYS, FOLDS, setExamples, type TextExample } from "../text-model/examples.js";
import { DEFAULT_OPTIONS, itemVectors, type FeaturizeOptions } from "../text-model/featurize.js";
import { fitText, scoreOf, type FitOptions, type Row } from "../text-model/train.js";

const CACHE = "/tmp/w15-text-model-examples.json";
function examples(): TextExample[] {
  if (existsSync(CACHE)) return JSON.parse(readFileSync(CACHE, "utf8")) as TextExample[];
  const all = [...FOLDS, ...ALWAYS].flatMap((name) => setExamples(name));
  writeFileSync(CACHE, JSON.stringify(all));
  return all;
}

export const CONFIGS: Record<string, { feat: FeaturizeOptions; fit: FitOptions }> = {
  base: { feat: DEFAULT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
};

const arg = process.argv.indexOf("--config");
const name = arg >= 0 ? (process.argv[arg + 1] ?? "base") : "base";
const config = CONFIGS[name];
if (config === undefined) throw new Error(`no config ${name}`);
const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99];

const t0 = Date.now();
const all = examples();
console.log(`examples ${all.length} (${all.filter((e) => e.y === 1).length} attacks) in ${Date.now() - t0} ms; config ${name} ${JSON.stringify(config)}`);
const rows = all.map((e) => ({ e, row: { y: e.y, items: e.items.flatMap((it) => itemVectors(it.units, config.feat)) } as Row }));
const totals = THRESHOLDS.map(() => ({ model: 0, attacks: 0, benignModel: 0, benign: 0, combined: 0, combinedBenign: 0, worstBenignRate: 0 }));
for (const fold of FOLDS) {
  const train = rows.filter((r) => r.e.set !== fold);
  const test = rows.filter((r) => r.e.set === fold);
  const model = fitText(train.map((r) => r.row), config.feat.buckets, config.fit);
  const scored = test.map((r) => ({ e: r.e, p: scoreOf(r.row.items, model) }));
  const attacks = scored.filter((s) => s.e.y === 1);
  const benign = scored.filter((s) => s.e.y === 0);
  const english = attacks.filter((s) => s.e.family !== "multilingual");
  const parts: string[] = [];
  THRESHOLDS.forEach((t, k) => {
    const m = attacks.filter((s) => s.p >= t).length;
    const mb = benign.filter((s) => s.p >= t).length;
    const cb = benign.filter((s) => s.p >= t || s.e.held).length;
    const tot = totals[k];
    if (tot !== undefined) {
      tot.model += m;
      tot.attacks += attacks.length;
      tot.benignModel += mb;
      tot.benign += benign.length;
      tot.combined += attacks.filter((s) => s.p >= t || s.e.held).length;
      tot.combinedBenign += cb;
      tot.worstBenignRate = Math.max(tot.worstBenignRate, cb / benign.length);
    }
    if ([0.5, 0.8, 0.9, 0.95, 0.98].includes(t)) parts.push(`t${t}: ${m}/${attacks.length} (en ${english.filter((s) => s.p >= t).length}/${english.length}) benign ${mb}/${benign.length}`);
  });
  console.log(`${fold}: rules ${attacks.filter((s) => s.e.held).length}/${attacks.length}, benign ${benign.filter((s) => s.e.held).length}/${benign.length} | ${parts.join(" | ")}`);
}
for (const [k, t] of THRESHOLDS.entries()) {
  const x = totals[k];
  if (x === undefined) continue;
  console.log(`t ${t}: model alone ${x.model}/${x.attacks} (${((100 * x.model) / x.attacks).toFixed(1)} %), benign ${x.benignModel}/${x.benign} (${((100 * x.benignModel) / x.benign).toFixed(2)} %); rules+model benign ${x.combinedBenign}/${x.benign}, worst set ${(100 * x.worstBenignRate).toFixed(2)} %`);
}
console.log(`total ${Date.now() - t0} ms`);
