/**
 * What the semantic stage adds on material it was not fitted on (the wave-10 feasibility measurement, kept):
 *
 * 1. Leave-one-set-out: for each spent set, the classifier is fitted on all the others and that set is scored. The
 *    rules were tuned on every set, so they hold all its attacks: this shows the stage's own recall there and what it
 *    adds in benign holds (the honest part).
 * 2. Prospective: sets v3, v4 and v5 as they were when measured — the rules of the commit that measured each (git
 *    archive into a temp dir), the classifier fitted only on the sets that existed before it. This is the situation of
 *    a new independent set, and the figure that estimates what the stage adds on v6.
 *
 * Never reads a held-out set that has not been measured (v6 and later are not read here).
 * Run: SEMANTIC_EMBED_CACHE=/tmp/semantic-vectors.json npx vite-node tests/mcp/audit/scripts/semantic-loso.ts [--prospective]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AuditContext, AuditedTool, Finding, Verdict } from "../../../../src/mcp/audit/index.js";
import { bagScore, fitSemantic } from "../semantic-fit.js";
import { SEMANTIC_SETS, setBags, type Bag, type SemanticSetName } from "../semantic-material.js";
import { vectorsFor } from "../semantic-vectors.js";
import { intentSetDir } from "../intent-harness.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const bySet = new Map<SemanticSetName, Bag[]>(SEMANTIC_SETS.map((s) => [s, setBags(s)]));
const vec = await vectorsFor([...bySet.values()].flat().flatMap((b) => b.sentences.map((s) => s.text)), console.log);

function report(label: string, test: readonly Bag[], train: readonly Bag[], heldByRules: (b: Bag) => boolean): void {
  const { model, threshold } = fitSemantic(train, vec);
  const semantic = (b: Bag) => bagScore(model, b, vec) >= threshold;
  const attacks = test.filter((b) => b.y === 1);
  const benign = test.filter((b) => b.y === 0);
  const n = (xs: readonly Bag[], f: (b: Bag) => boolean) => xs.filter(f).length;
  const either = (b: Bag) => heldByRules(b) || semantic(b);
  const families = [...new Set(attacks.map((a) => a.family))].map((f) => {
    const xs = attacks.filter((a) => a.family === f);
    return `${f} ${n(xs, heldByRules)}→${n(xs, either)}/${xs.length}`;
  });
  console.log(`${label} (threshold ${threshold}): attacks rules ${n(attacks, heldByRules)} → with the stage ${n(attacks, either)}/${attacks.length} (stage alone ${n(attacks, semantic)}); benign rules ${n(benign, heldByRules)} → ${n(benign, either)}/${benign.length} (stage alone ${n(benign, semantic)})`);
  if (attacks.length > 0) console.log(`    ${families.join(", ")}`);
}

if (!process.argv.includes("--prospective")) {
  for (const name of SEMANTIC_SETS) report(`leave-one-set-out ${name}`, bySet.get(name) ?? [], SEMANTIC_SETS.filter((s) => s !== name).flatMap((s) => bySet.get(s) ?? []), (b) => b.held);
}

/** Each set with the commit whose rules measured it first, and the sets that existed before it. */
const PROSPECTIVE: ReadonlyArray<[SemanticSetName, string, SemanticSetName[]]> = [
  ["heldout-v3", "f617daf", ["tuning", "heldout-v2", "corpus"]],
  ["heldout-v4", "2d39d72", ["tuning", "heldout-v2", "heldout-v3", "tuning-v5", "benign-extra", "benign-extra-2", "corpus"]],
  ["heldout-v5", "0761677", ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "tuning-v5", "benign-extra", "benign-extra-2", "benign-extra-3", "corpus"]],
];

interface OldAuditor {
  auditServer(input: { serverName: string; instructions?: string; tools: AuditedTool[] }, context: AuditContext): { findings: Finding[] };
  verdictOf(findings: readonly Finding[]): Verdict;
}

for (const [name, commit, trainSets] of PROSPECTIVE) {
  const dir = mkdtempSync(path.join(tmpdir(), `semantic-loso-${commit}-`));
  try {
    execFileSync("sh", ["-c", `git -C "${repoRoot}" archive ${commit} src | tar -x -C "${dir}"`]);
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
    const old = (await import(path.join(dir, "src/mcp/audit/index.ts"))) as OldAuditor;
    const half = JSON.parse(readFileSync(path.join(intentSetDir, `${name}.json`), "utf8")) as { attacks: Array<{ id: string; server: { name: string; instructions?: string; tools: AuditedTool[] }; otherServers: AuditContext["otherServers"] }>; benign: Array<{ server: string; tools: AuditedTool[] }> };
    const held = new Set<string>();
    const holds = (f: Finding[]) => ["warn", "block"].includes(old.verdictOf(f));
    for (const c of half.attacks) if (holds(old.auditServer({ serverName: c.server.name, instructions: c.server.instructions, tools: c.server.tools }, { otherServers: c.otherServers }).findings)) held.add(c.id);
    for (const s of half.benign) {
      const others = half.benign.filter((o) => o.server !== s.server).map((o) => ({ name: o.server, toolNames: o.tools.map((t) => t.name) }));
      const r = old.auditServer({ serverName: s.server, tools: s.tools }, { otherServers: others });
      for (const t of s.tools) if (holds(r.findings.filter((f) => f.location.tool === t.name))) held.add(`${s.server}/${t.name}`);
    }
    report(`prospective ${name} (rules of ${commit}, fitted on ${trainSets.join(" ")})`, bySet.get(name) ?? [], trainSets.flatMap((s) => bySet.get(s) ?? []), (b) => held.has(b.id));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
