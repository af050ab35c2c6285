/**
 * Prints held-out set v3's figures by family, counts only (the rules are not tuned on its
 * individual misses, so this script never prints case ids or findings).
 * Run: npx vite-node tests/mcp/audit/scripts/measure-v3.ts
 */
import { isFlagged, loadHalf, scoreAttack, scoreBenign } from "../intent-harness.js";

const half = loadHalf("heldout-v3");
const byFamily = new Map<string, { caught: number; total: number }>();
for (const c of half.attacks) {
  const f = byFamily.get(c.family) ?? { caught: 0, total: 0 };
  f.total += 1;
  if (isFlagged(scoreAttack(c).verdict)) f.caught += 1;
  byFamily.set(c.family, f);
}
const benign = scoreBenign(half);
const caught = [...byFamily.values()].reduce((n, f) => n + f.caught, 0);
for (const [family, f] of byFamily) console.log(`${family}: ${f.caught}/${f.total}`);
console.log(`attacks flagged: ${caught}/${half.attacks.length}`);
const byServer = new Map<string, number>();
for (const b of benign) if (isFlagged(b.verdict)) byServer.set(b.id.split("/")[0] ?? "", (byServer.get(b.id.split("/")[0] ?? "") ?? 0) + 1);
console.log(`benign flagged: ${benign.filter((b) => isFlagged(b.verdict)).length}/${benign.length} (by server: ${JSON.stringify(Object.fromEntries(byServer))})`);
