import { loadHalf, scoreBenign, isFlagged } from "/work/w6/audit-tune/tests/mcp/audit/intent-harness.js";
const half = loadHalf((process.argv[2] ?? "benign-extra-2") as any);
const counts = new Map<string, number>();
for (const b of scoreBenign(half)) if (isFlagged(b.verdict)) {
  const top = b.findings.filter((f) => f.severity !== "info");
  for (const f of top) counts.set(f.rule, (counts.get(f.rule) ?? 0) + 1);
  if (process.argv[3] === "v") console.log(b.id, top.map((f) => `${f.rule}@${f.location.jsonPath}: ${f.evidence.slice(0, 150)}`).join(" | "));
}
console.log(counts);
