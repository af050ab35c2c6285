/**
 * Prints every tuning set's figures with the ids of misses and benign tools flagged, second opinion off
 * and on (the fake reviewer called directly, the same prompt → verdict → finding path the service uses).
 * Sets: v1–v7 (all spent: tuned on), benign-extra(-2 … -5), tuning-v5 and the public corpus.
 * Run: npx vite-node tests/mcp/audit/scripts/measure-all.ts [--quiet]
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { buildSecondOpinionPrompt, parseSecondOpinionVerdict, secondOpinionFinding, verdictOf, type AuditedTool, type Finding } from "../../../../src/mcp/audit/index.js";
import { fakeReviewerVerdict } from "../fake-reviewer.js";
import { auditCase, loadCases, loadListings } from "../guardbench-harness.js";
import { intentSetDir, isFlagged, loadHalf, scoreAttack, scoreBenign, type HalfName } from "../intent-harness.js";

const NONCE = "0123456789abcdef0123456789abcdef";
const reviewed = new Map<string, Finding[]>();
function careful(tool: AuditedTool, own: ReadonlySet<string>): Finding[] {
  const key = JSON.stringify([tool, [...own]]);
  let out = reviewed.get(key);
  if (out === undefined) {
    const prompt = buildSecondOpinionPrompt(tool, NONCE);
    const verdict = parseSecondOpinionVerdict(JSON.stringify({ nonce: NONCE, ...fakeReviewerVerdict(prompt.user) }), NONCE);
    const f = secondOpinionFinding(verdict, tool, own);
    out = f === undefined ? [] : [f];
    reviewed.set(key, out);
  }
  return out;
}
const none = (): Finding[] => [];
const quiet = process.argv.includes("--quiet");

function line(name: string, label: string, caught: number, attacks: number, flagged: number, benign: number, missed: string[], fps: string[]): void {
  console.log(`${name} [${label}]: attacks ${caught}/${attacks}, benign flagged ${flagged}/${benign}`);
  if (!quiet && missed.length > 0) console.log(`  missed: ${missed.join(", ")}`);
  if (!quiet && fps.length > 0) console.log(`  benign flagged: ${fps.join(", ")}`);
}

const halves: HalfName[] = ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "benign-extra", "benign-extra-2", "benign-extra-3", "benign-extra-4", "benign-extra-5", "tuning-v5", "heldout-v5", "heldout-v6", "heldout-v7"];
for (const name of halves) {
  if (!existsSync(path.join(intentSetDir, `${name}.json`))) continue;
  const half = loadHalf(name);
  for (const [label, extra] of [["off", none], ["on", careful]] as const) {
    const attacks = half.attacks.map((c) => scoreAttack(c, extra));
    const benign = scoreBenign(half, extra);
    const missed = attacks.filter((a) => !isFlagged(a.verdict)).map((a) => a.id);
    const fps = benign.filter((b) => isFlagged(b.verdict)).map((b) => b.id);
    line(name, label, attacks.length - missed.length, attacks.length, fps.length, benign.length, missed, fps);
  }
}

for (const [label, extra] of [["off", none], ["on", careful]] as const) {
  const rows = loadCases().map((c) => ({ c, outcome: auditCase(c) }));
  const toolsOf = (c: (typeof rows)[number]["c"]) => ((c.message.result as { tools?: AuditedTool[] } | undefined)?.tools ?? []) as AuditedTool[];
  const missed: string[] = [];
  let attacks = 0;
  for (const r of rows.filter((x) => x.c.bucket !== "benign")) {
    attacks++;
    const own = new Set(toolsOf(r.c).map((t) => t.name));
    const v = r.outcome.kind === "definition" ? verdictOf([...r.outcome.findings, ...toolsOf(r.c).flatMap((t) => extra(t, own))]) : r.outcome.verdict;
    if (!isFlagged(v)) missed.push(r.c.id);
  }
  const fps: string[] = [];
  let benign = 0;
  for (const r of rows.filter((x) => x.c.bucket === "benign" && x.outcome.kind === "definition")) {
    for (const t of r.outcome.tools) {
      benign++;
      const tool = toolsOf(r.c).find((x) => x.name === t.name);
      const own = new Set(toolsOf(r.c).map((x) => x.name));
      if (isFlagged(verdictOf([...r.outcome.findings.filter((f) => f.location.tool === t.name), ...(tool === undefined ? [] : extra(tool, own))]))) fps.push(`${r.c.id}/${t.name}`);
    }
  }
  const listings = { attacks: [], benign: Object.entries(loadListings()).map(([server, tools]) => ({ server, source: { repo: "", commit: "", path: "" }, tools })) };
  for (const s of scoreBenign(listings, extra)) {
    benign++;
    if (isFlagged(s.verdict)) fps.push(`listing:${s.id}`);
  }
  line("corpus", label, attacks - missed.length, attacks, fps.length, benign, missed, fps);
}
