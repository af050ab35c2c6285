/**
 * The embedding study's last step (issue 16): leave-one-set-out over the held-out sets v13–v17 for a logistic
 * regression on sentence vectors (embed-vectors.ts), next to the whole audit's own verdicts (embed-texts.ts). For each
 * fold the classifier is fitted on every other set (benign-voice-heldout is never fitted on: it is scored as an extra
 * benign check), its threshold chosen on the training sets only — out-of-fold scores from five inner fits, each
 * without a fifth of the training sets, at the lowest threshold that keeps benign flagged at or under 2 % — and scored
 * on the fold. Prints counts only (held-out cases stay unread): (a) the audit alone, (b) the classifier alone,
 * (c) the audit OR the classifier; and a ceiling, the threshold read off the fold itself, which is no result.
 * Representations (--rep): `pool` (default) one vector per example, the mean and the per-dimension max of its chunks'
 * vectors; `item` the same per tool, the example as suspicious as its most suspicious tool; `mil` every chunk apart.
 * --unbudgeted=<set,…> fits on those sets but leaves their benign out of the threshold's 2 % budget.
 * Run: nice -n 10 npx vite-node tests/mcp/audit/scripts/embed-loso.ts <dir> [--rep=pool|item|mil] [--steps=300] [--unbudgeted=benign-voice]
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { chunksOf, type EmbedExample } from "./embed-chunks.js";
import { fitDense, scoreDense, thresholdAt, type DenseRow } from "./embed-fit.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const dir = args.find((a) => !a.startsWith("-")) ?? "embed-study";
const rep = option("rep", "pool");
// Sets fitted on but left out of the threshold's benign budget (e.g. benign-voice, honest text in the attacks' voice).
const unbudgeted = new Set(option("unbudgeted", "").split(",").filter((n) => n.length > 0));
const fitOptions = { steps: Number(option("steps", "300")), rate: Number(option("rate", "0.05")), l2: Number(option("l2", "0.001")) };

const examples = JSON.parse(readFileSync(path.join(dir, "texts.json"), "utf8")) as EmbedExample[];
const chunks = JSON.parse(readFileSync(path.join(dir, "chunks.json"), "utf8")) as string[];
const raw = readFileSync(path.join(dir, "vecs.f32"));
const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
const dim = all.length / chunks.length;
const rowOf = new Map(chunks.map((c, i) => [c, i]));
const vectorOf = (c: string): Float32Array => {
  const i = rowOf.get(c);
  if (i === undefined) throw new Error(`chunk not embedded: run embed-vectors.ts again on ${dir}`);
  return all.subarray(i * dim, (i + 1) * dim);
};

/** Mean and per-dimension max of some vectors, side by side (zeros for none). */
function pooled(vs: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(2 * dim);
  if (vs.length === 0) return out;
  out.fill(-Infinity, dim);
  for (const v of vs)
    for (let j = 0; j < dim; j++) {
      out[j] = (out[j] ?? 0) + (v[j] ?? 0) / vs.length;
      out[dim + j] = Math.max(out[dim + j] ?? -Infinity, v[j] ?? 0);
    }
  return out;
}

interface Example extends DenseRow {
  readonly e: EmbedExample;
}
const data: Example[] = examples.map((e) => {
  const perItem = e.items.map((it) => chunksOf(it).map(vectorOf));
  const instances = rep === "mil" ? perItem.flat() : rep === "item" ? perItem.map(pooled) : [pooled(perItem.flat())];
  return { e, y: e.y, instances };
});

const FOLDS = ["heldout-v13", "heldout-v14", "heldout-v15", "heldout-v16", "heldout-v17"];
const EXTRA = "benign-voice-heldout";
const pct = (n: number, d: number): string => `${n}/${d} (${((100 * n) / d).toFixed(1)} %)`;
const totals = { a: [0, 0, 0, 0], b: [0, 0, 0, 0], c: [0, 0, 0, 0] };
console.log(`representation ${rep}, ${JSON.stringify(fitOptions)}, ${dim}-dimensional chunk vectors, threshold budget without ${[...unbudgeted].join(", ") || "nothing"}`);
for (const fold of FOLDS) {
  const t0 = Date.now();
  const train = data.filter((x) => x.e.set !== fold && x.e.set !== EXTRA);
  const groups = [...new Set(train.map((x) => x.e.set))];
  const outOfFold: Array<{ flagged: boolean; y: 0 | 1; p: number }> = [];
  for (let k = 0; k < 5; k++) {
    const left = new Set(groups.filter((_, i) => i % 5 === k));
    const model = fitDense(train.filter((x) => !left.has(x.e.set)), fitOptions);
    for (const x of train.filter((t) => left.has(t.e.set) && !(t.y === 0 && unbudgeted.has(t.e.set)))) outOfFold.push({ flagged: x.e.flagged, y: x.y, p: scoreDense(x, model) });
  }
  const alone = thresholdAt(outOfFold, false);
  const either = thresholdAt(outOfFold, true);
  const model = fitDense(train, fitOptions);
  const test = data.filter((x) => x.e.set === fold).map((x) => ({ flagged: x.e.flagged, y: x.y, p: scoreDense(x, model) }));
  const extra = data.filter((x) => x.e.set === EXTRA).map((x) => ({ flagged: x.e.flagged, y: x.y, p: scoreDense(x, model) }));
  const attacks = test.filter((x) => x.y === 1);
  const benign = test.filter((x) => x.y === 0);
  const count = (xs: typeof test, held: (x: (typeof test)[number]) => boolean): number => xs.filter(held).length;
  const byModel = (t: number) => (x: (typeof test)[number]) => x.p >= t;
  const byEither = (t: number) => (x: (typeof test)[number]) => x.flagged || x.p >= t;
  const rows = {
    a: [count(attacks, (x) => x.flagged), attacks.length, count(benign, (x) => x.flagged), benign.length],
    b: [count(attacks, byModel(alone)), attacks.length, count(benign, byModel(alone)), benign.length],
    c: [count(attacks, byEither(either)), attacks.length, count(benign, byEither(either)), benign.length],
  };
  for (const k of ["a", "b", "c"] as const) rows[k].forEach((n, i) => (totals[k][i] = (totals[k][i] ?? 0) + (n ?? 0)));
  const line = (r: number[]): string => `attacks ${pct(r[0] ?? 0, r[1] ?? 0)}, benign ${pct(r[2] ?? 0, r[3] ?? 0)}`;
  console.log(`${fold}: (a) audit ${line(rows.a)} | (b) classifier t=${alone.toFixed(3)} ${line(rows.b)} | (c) audit OR classifier t=${either.toFixed(3)} ${line(rows.c)}`);
  console.log(`  ${EXTRA}: (a) ${pct(count(extra, (x) => x.flagged), extra.length)} (b) ${pct(count(extra, byModel(alone)), extra.length)} (c) ${pct(count(extra, byEither(either)), extra.length)}`);
  const ceilingAlone = thresholdAt(test, false);
  const ceilingEither = thresholdAt(test, true);
  const atCeiling = (held: (x: (typeof test)[number]) => boolean): string =>
    `${line([count(attacks, held), attacks.length, count(benign, held), benign.length])}, ${EXTRA} ${pct(count(extra, held), extra.length)}`;
  console.log(`  ceiling, threshold read off ${fold} itself (no result): (b) t=${ceilingAlone.toFixed(3)} ${atCeiling(byModel(ceilingAlone))}; (c) t=${ceilingEither.toFixed(3)} ${atCeiling(byEither(ceilingEither))}; ${Math.round((Date.now() - t0) / 1000)} s`);
}
for (const k of ["a", "b", "c"] as const) console.log(`all five (${k}): attacks ${pct(totals[k][0] ?? 0, totals[k][1] ?? 0)}, benign ${pct(totals[k][2] ?? 0, totals[k][3] ?? 0)}`);
