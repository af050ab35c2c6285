/**
 * The one measurement of the frozen text model (text-model/configs.ts FROZEN) on held-out set v10: fitted on every
 * spent set and tuning file, then v10 scored — rules alone, model alone, rules + model — by family and benign by
 * server. Counts only (heldout-counts.ts says why). Run once: npx vite-node tests/mcp/audit/scripts/text-model-v10.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { CONFIGS, FROZEN } from "../text-model/configs.js";
import { setExamples, type TextExample } from "../text-model/examples.js";
import { itemVectors } from "../text-model/features.js";
import { fitText, scoreOf } from "../text-model/train.js";

const CACHE = "/tmp/w15-text-model-examples.json";
if (!existsSync(CACHE)) throw new Error("run text-model-loso.ts first (it writes the example cache)");
const training = JSON.parse(readFileSync(CACHE, "utf8")) as TextExample[];
const config = CONFIGS[FROZEN.config];
if (config === undefined) throw new Error("no frozen config");
const vec = (e: TextExample) => e.items.flatMap((it) => itemVectors(it.units, config.feat));
const model = fitText(training.map((e) => ({ y: e.y, items: vec(e) })), config.feat.buckets, config.fit);
const v10 = setExamples("heldout-v10").map((e) => ({ e, byModel: scoreOf(vec(e), model) >= FROZEN.threshold }));
const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} %`;
const count = (list: typeof v10, f: (x: (typeof v10)[number]) => boolean) => list.filter(f).length;
const attacks = v10.filter((x) => x.e.y === 1);
const benign = v10.filter((x) => x.e.y === 0);
console.log(`text model ${FROZEN.config} at ${FROZEN.threshold}, fitted on ${training.length} examples`);
for (const family of [...new Set(attacks.map((x) => x.e.family))]) {
  const f = attacks.filter((x) => x.e.family === family);
  console.log(`  ${family}: rules ${count(f, (x) => x.e.held)}/${f.length}, model alone ${count(f, (x) => x.byModel)}, rules + model ${count(f, (x) => x.e.held || x.byModel)}`);
}
for (const [label, f] of [["rules alone", (x: (typeof v10)[number]) => x.e.held], ["model alone", (x: (typeof v10)[number]) => x.byModel], ["rules + model", (x: (typeof v10)[number]) => x.e.held || x.byModel]] as const) {
  const byServer: Record<string, number> = {};
  for (const b of benign.filter(f)) byServer[b.e.id.split("/")[0] ?? ""] = (byServer[b.e.id.split("/")[0] ?? ""] ?? 0) + 1;
  console.log(`${label}: attacks ${count(attacks, f)}/${attacks.length} (${pct(count(attacks, f), attacks.length)}), benign ${count(benign, f)}/${benign.length} (${pct(count(benign, f), benign.length)}) ${JSON.stringify(byServer)}`);
}
