/**
 * What the text model weighs: fits on every spent set and prints the strongest features both ways (each bucket named
 * by the feature strings of the material that fall in it), then the authorship probe — a fit without
 * semantic-paraphrases.json, scored on its benign hard negatives, which we wrote ourselves (benign text in the
 * attacks' voice: a model that learned authorship holds them).
 * Run: npx vite-node tests/mcp/audit/scripts/text-model-inspect.ts [--config name]
 */
import { cachedExamples } from "../text-model/cache.js";
import { ALWAYS, FOLDS } from "../text-model/examples.js";
import { hash32, itemVectors, readsUnit, unitFeatures } from "../../../../src/mcp/audit/intent/text-features.js";
import { fitText, scoreOf, type Row } from "../text-model/train.js";
import { CONFIGS } from "../text-model/configs.js";

const all = cachedExamples([...FOLDS, ...ALWAYS]);
const arg = process.argv.indexOf("--config");
const config = CONFIGS[arg >= 0 ? (process.argv[arg + 1] ?? "base") : "base"];
if (config === undefined) throw new Error("no such config");
const rows = all.map((e) => ({ e, row: { y: e.y, items: e.items.flatMap((it) => itemVectors(it.units, config.feat)) } as Row }));
const model = fitText(rows.map((r) => r.row), config.feat.buckets, config.fit);

// Name each bucket by its features: count how often each feature string occurs in attacks and in benign tools.
const names = new Map<number, Map<string, [number, number]>>();
for (const { e } of rows) {
  const seen = new Set<string>();
  for (const it of e.items) for (const u of it.units) if (readsUnit(u.text, config.feat)) for (const f of unitFeatures(u, config.feat)) seen.add(f);
  for (const f of seen) {
    const b = hash32(f) & (config.feat.buckets - 1);
    const m = names.get(b) ?? new Map<string, [number, number]>();
    const c = m.get(f) ?? [0, 0];
    c[e.y] += 1;
    m.set(f, c);
    names.set(b, m);
  }
}
const sign = (f: string): number => ((hash32(f) & 0x80000000) !== 0 ? -1 : 1);
// A feature's effective weight is the bucket's weight times its hash sign.
const effective: Array<{ f: string; w: number; benign: number; attacks: number }> = [];
for (const [b, m] of names) for (const [f, [benign, attacks]] of m) effective.push({ f, w: (model.weights[b] ?? 0) * sign(f), benign, attacks });
effective.sort((a, b) => b.w - a.w);
const show = (list: typeof effective) => list.map((x) => `${x.w.toFixed(3)} ${JSON.stringify(x.f)} (attacks ${x.attacks}, benign ${x.benign})`).join("\n");
console.log("strongest towards attack:\n" + show(effective.slice(0, 60)));
console.log("strongest towards benign:\n" + show(effective.slice(-40).reverse()));

const probeTrain = rows.filter((r) => r.e.set !== "semantic-paraphrases");
const probe = fitText(probeTrain.map((r) => r.row), config.feat.buckets, config.fit);
for (const r of rows.filter((x) => x.e.set === "semantic-paraphrases")) console.log(`probe ${r.e.y === 1 ? "attack" : "benign"} ${r.e.id}: p ${scoreOf(r.row.items, probe).toFixed(3)} (rules ${r.e.held ? "hold" : "pass"})`);
