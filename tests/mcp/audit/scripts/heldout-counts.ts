/**
 * Prints a held-out set's figures — by family, benign by server, with the LLM second opinion off and
 * on (the local fake reviewer) — counts only: a held-out set was written before tuning by someone who
 * never read the rules, and its individual misses must stay unknown to whoever tunes them, so this
 * never prints case ids, texts or findings. measure-v4.ts and measure-v5.ts run it on their set.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildSecondOpinionPrompt, parseSecondOpinionVerdict, secondOpinionFinding, type AuditedTool, type Finding } from "../../../../src/mcp/audit/index.js";
import { fakeReviewerVerdict } from "../fake-reviewer.js";
import { intentSetDir, isFlagged, scoreAttack, scoreBenign, type IntentHalf } from "../intent-harness.js";

/**
 * The second opinion as the service asks it (one tool at a time, never the server's instructions), answered by
 * the fake reviewer, parsed and combined with the rules exactly as the catalog does (own tool names included).
 */
function fakeSecondOpinion(tool: AuditedTool, own: ReadonlySet<string>): Finding[] {
  const nonce = "0123456789abcdef0123456789abcdef";
  const prompt = buildSecondOpinionPrompt(tool, nonce);
  const verdict = parseSecondOpinionVerdict(JSON.stringify({ nonce, ...fakeReviewerVerdict(prompt.user) }), nonce);
  const finding = secondOpinionFinding(verdict, tool, own);
  return finding === undefined ? [] : [finding];
}

function measure(half: IntentHalf, label: string, extra?: (tool: AuditedTool, own: ReadonlySet<string>) => Finding[]): void {
  const byFamily = new Map<string, { caught: number; total: number }>();
  for (const c of half.attacks) {
    const f = byFamily.get(c.family) ?? { caught: 0, total: 0 };
    f.total += 1;
    if (isFlagged(scoreAttack(c, extra).verdict)) f.caught += 1;
    byFamily.set(c.family, f);
  }
  const caught = [...byFamily.values()].reduce((n, f) => n + f.caught, 0);
  const benign = scoreBenign(half, extra);
  const flagged = benign.filter((b) => isFlagged(b.verdict));
  const byServer: Record<string, number> = {};
  for (const s of half.benign) byServer[s.server] = 0;
  for (const b of flagged) {
    const server = b.id.split("/")[0] ?? "";
    byServer[server] = (byServer[server] ?? 0) + 1;
  }
  const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} %`;
  console.log(`second opinion ${label}`);
  for (const [family, f] of byFamily) console.log(`  ${family}: ${f.caught}/${f.total}`);
  console.log(`  attacks flagged: ${caught}/${half.attacks.length} (${pct(caught, half.attacks.length)})`);
  console.log(`  benign flagged: ${flagged.length}/${benign.length} (${pct(flagged.length, benign.length)}) by server: ${JSON.stringify(byServer)}`);
}


/** Prints the counts of `heldout-<name>.json` (tests/fixtures/audit-intent), second opinion off, then on. */
export function printHeldoutCounts(name: string): void {
  const half = JSON.parse(readFileSync(path.join(intentSetDir, `heldout-${name}.json`), "utf8")) as IntentHalf;
  measure(half, "off");
  measure(half, "on (fake reviewer)", fakeSecondOpinion);
}
