/**
 * The embedding study's first step (issue 16; embed-vectors.ts and embed-loso.ts follow): writes, for every set, each
 * example's texts (a tool's strings, a server's instructions) and whether the whole audit (rules and both shipped
 * models, no second opinion) holds it, to `<dir>/texts.json`. Nothing is printed per case.
 * Run: npx vite-node tests/mcp/audit/scripts/embed-texts.ts <dir>
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EmbedExample } from "./embed-chunks.js";
import { instructionsItem, toolItem } from "../text-model/examples.js";
import { isFlagged, loadHalf, scoreAttack, scoreBenign, type HalfName } from "../intent-harness.js";

const SETS: HalfName[] = ["tuning", "tuning-v5", "heldout-v2", "heldout-v3", "heldout-v4", "heldout-v5", "heldout-v6", "heldout-v7", "heldout-v8", "heldout-v9", "heldout-v10", "heldout-v11", "heldout-v12", "heldout-v13", "heldout-v14", "heldout-v15", "heldout-v16", "heldout-v17", "training-w19a", "training-w19b", "training-w19c", "benign-extra", "benign-extra-2", "benign-extra-3", "benign-extra-4", "benign-extra-5", "benign-multilingual", "benign-voice", "benign-voice-heldout"];

const out: EmbedExample[] = [];
const itemText = (name: string, units: ReadonlyArray<{ text: string }>): string => [name, ...units.map((u) => u.text)].join("\n");
for (const name of SETS) {
  const t0 = Date.now();
  const half = loadHalf(name);
  for (const c of half.attacks) {
    const own = new Set(c.server.tools.map((t) => t.name));
    const items = c.server.tools.map((t) => toolItem(t, own)).map((i) => itemText(i.name, i.units));
    if (c.server.instructions !== undefined && c.server.instructions.length > 0) items.push(instructionsItem(c.server.instructions, own).units.map((u) => u.text).join("\n"));
    out.push({ set: name, y: 1, family: c.family, flagged: isFlagged(scoreAttack(c).verdict), items });
  }
  const benign = scoreBenign(half);
  let k = 0;
  for (const s of half.benign) {
    const own = new Set(s.tools.map((t) => t.name));
    for (const t of s.tools) {
      const i = toolItem(t, own);
      const scored = benign[k++];
      out.push({ set: name, y: 0, family: "benign", flagged: scored !== undefined && isFlagged(scored.verdict), items: [itemText(i.name, i.units)] });
    }
  }
  console.error(`${name}: ${Date.now() - t0} ms`);
}
const dir = process.argv[2] ?? "embed-study";
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "texts.json"), JSON.stringify(out));
