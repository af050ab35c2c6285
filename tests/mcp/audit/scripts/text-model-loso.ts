/**
 * Leave-one-set-out for the text model (tests/mcp/audit/text-model/): for each spent held-out set v2…v9 the model is
 * fitted on every other spent set and tuning file and scored on the one left out. Prints, per left-out set and
 * threshold, the attacks and benign tools the model alone holds, and rules + model. One more fold, reported apart:
 * semantic-paraphrases.json left out, whose benign hard negatives we wrote ourselves (the authorship probe: benign
 * text in the attacks' voice).
 * Run: npx vite-node tests/mcp/audit/scripts/text-model-loso.ts [config …]   (configs: text-model/configs.ts)
 */
import { CONFIGS, decidedScore, rowOf } from "../text-model/configs.js";
import { cachedExamples } from "../text-model/cache.js";
import { ALWAYS, FOLDS, type TextExample } from "../text-model/examples.js";
import { fitText } from "../text-model/train.js";

const examples = (): TextExample[] => cachedExamples([...FOLDS, ...ALWAYS]);

const THRESHOLDS = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.875, 0.9, 0.93, 0.95, 0.97];
const all = examples();
const names = process.argv.slice(2).filter((a) => !a.startsWith("-"));
for (const name of names.length > 0 ? names : ["base"]) {
  const config = CONFIGS[name];
  if (config === undefined) throw new Error(`no config ${name}`);
  const t0 = Date.now();
  console.log(`\n== config ${name} ${JSON.stringify(config)}`);
  const rows = all.map((e) => ({ e, row: rowOf(e, config) }));
  const totals = THRESHOLDS.map(() => ({ model: 0, english: 0, attacks: 0, englishAttacks: 0, benignModel: 0, benign: 0, combinedBenign: 0, worstBenign: 0, probe: 0, probeAttacks: 0 }));
  for (const fold of [...FOLDS, "semantic-paraphrases"]) {
    const train = rows.filter((r) => r.e.set !== fold);
    const test = rows.filter((r) => r.e.set === fold);
    const model = fitText(train.map((r) => r.row), config.feat.buckets, config.fit);
    const scored = test.map((r) => ({ e: r.e, p: decidedScore(r.e, model, config) }));
    const attacks = scored.filter((s) => s.e.y === 1);
    const benign = scored.filter((s) => s.e.y === 0);
    const english = attacks.filter((s) => s.e.family !== "multilingual");
    const parts: string[] = [];
    THRESHOLDS.forEach((t, k) => {
      const tot = totals[k];
      if (tot === undefined) return;
      const m = attacks.filter((s) => s.p >= t).length;
      const mb = benign.filter((s) => s.p >= t).length;
      if (fold === "semantic-paraphrases") {
        tot.probe += mb;
        tot.probeAttacks += m;
      } else {
        tot.model += m;
        tot.english += english.filter((s) => s.p >= t).length;
        tot.attacks += attacks.length;
        tot.englishAttacks += english.length;
        tot.benignModel += mb;
        tot.benign += benign.length;
        const cb = benign.filter((s) => s.p >= t || s.e.held).length;
        tot.combinedBenign += cb;
        tot.worstBenign = Math.max(tot.worstBenign, cb / benign.length);
      }
      if ([0.7, 0.8, 0.85, 0.9].includes(t)) parts.push(`t${t}: ${m}/${attacks.length} (en ${english.filter((s) => s.p >= t).length}/${english.length}) benign ${mb}/${benign.length}`);
    });
    console.log(`${fold}: rules ${attacks.filter((s) => s.e.held).length}/${attacks.length}, benign ${benign.filter((s) => s.e.held).length}/${benign.length} | ${parts.join(" | ")}`);
  }
  // Our own voice: benign-voice (honest tools written in the attacks' voice) in two halves by server, each half scored
  // by a fit without it: how much of such text, unseen, the model alone holds.
  const serverOf = (e: TextExample): string => e.id.split("/")[0] ?? "";
  const voiceRows = rows.filter((r) => r.e.set === "benign-voice");
  const voiceServers = [...new Set(voiceRows.map((r) => serverOf(r.e)))];
  const voiceHeld = THRESHOLDS.map(() => 0);
  for (const half of [0, 1]) {
    const out = new Set(voiceServers.filter((_, i) => i % 2 === half));
    const left = (r: (typeof rows)[number]): boolean => r.e.set === "benign-voice" && out.has(serverOf(r.e));
    const model = fitText(rows.filter((r) => !left(r)).map((r) => r.row), config.feat.buckets, config.fit);
    const scores = rows.filter(left).map((r) => decidedScore(r.e, model, config));
    THRESHOLDS.forEach((t, k) => (voiceHeld[k] = (voiceHeld[k] ?? 0) + scores.filter((p) => p >= t).length));
  }
  if (voiceRows.length > 0) console.log(`benign-voice (two halves by server): rules hold ${voiceRows.filter((r) => r.e.held).length}/${voiceRows.length}; model alone ${THRESHOLDS.map((t, k) => `t${t} ${voiceHeld[k]}`).join(", ")}`);
  const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} %`;
  for (const [k, t] of THRESHOLDS.entries()) {
    const x = totals[k];
    if (x === undefined) continue;
    console.log(
      `t ${t}: model alone ${x.model}/${x.attacks} (${pct(x.model, x.attacks)}; English families ${x.english}/${x.englishAttacks}), benign ${x.benignModel}/${x.benign} (${pct(x.benignModel, x.benign)}); rules+model benign worst set ${pct(x.worstBenign, 1)}; probe: our benign ${x.probe}/12, paraphrase attacks ${x.probeAttacks}/12`,
    );
  }
  console.log(`${name}: ${Date.now() - t0} ms`);
}
