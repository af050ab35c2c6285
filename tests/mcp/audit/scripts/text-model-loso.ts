/**
 * Leave-one-set-out for the text model (tests/mcp/audit/text-model/): for each fold (configs.ts: the spent held-out sets,
 * each wave-19 writer's set, benign-multilingual) the model is fitted on every other fold and tuning file and scored on
 * the one left out. Two more: semantic-paraphrases left out (its 12 benign hard negatives are benign text we wrote in
 * the attacks' voice), and benign-voice in two halves by server, each scored by a fit without it. Every left-out score
 * is kept (under the temp directory, loso/<config>.json) and the table printed (text-model/loso-table.ts).
 * Run: npx vite-node tests/mcp/audit/scripts/text-model-loso.ts [config …]   (configs: text-model/configs.ts)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONFIGS, decidedScore, rowOf } from "../text-model/configs.js";
import { cachedExamples, EXAMPLE_CACHE } from "../text-model/cache.js";
import { ALWAYS, FOLDS, type TextExample } from "../text-model/examples.js";
import { renderTable, type LeftOut } from "../text-model/loso-table.js";
import { fitText } from "../text-model/train.js";

const all = cachedExamples([...FOLDS, ...ALWAYS]);
const out = path.join(EXAMPLE_CACHE, "loso");
mkdirSync(out, { recursive: true });
const serverOf = (e: TextExample): string => e.id.split("/")[0] ?? "";
const voiceServers = [...new Set(all.filter((e) => e.set === "benign-voice").map(serverOf))];
const voiceHalf = (e: TextExample): number => voiceServers.indexOf(serverOf(e)) % 2;

const names = process.argv.slice(2).filter((a) => !a.startsWith("-"));
for (const name of names.length > 0 ? names : ["content"]) {
  const config = CONFIGS[name];
  if (config === undefined) throw new Error(`no config ${name}`);
  const t0 = Date.now();
  const rows = all.map((e) => ({ e, row: rowOf(e, config) }));
  const folds: Array<readonly [string, (e: TextExample) => boolean]> = [
    ...[...FOLDS, "semantic-paraphrases"].map((fold) => [fold, (e: TextExample) => e.set === fold] as const),
    ...[0, 1].map((half) => [`benign-voice half ${half}`, (e: TextExample) => e.set === "benign-voice" && voiceHalf(e) === half] as const),
  ];
  const left: LeftOut[] = [];
  for (const [fold, isOut] of folds) {
    const model = fitText(rows.filter((r) => !isOut(r.e)).map((r) => r.row), config.feat.buckets, config.fit);
    for (const { e } of rows.filter((r) => isOut(r.e))) left.push({ fold, set: e.set, id: e.id, y: e.y, family: e.family, held: e.held, p: decidedScore(e, model, config) });
    console.error(`${name}: ${fold} done, ${Math.round((Date.now() - t0) / 1000)} s`);
  }
  writeFileSync(path.join(out, `${name}.json`), JSON.stringify(left));
  console.log(renderTable(`config ${name} ${JSON.stringify(config)}`, left));
  console.log(`${name}: ${Date.now() - t0} ms`);
}
