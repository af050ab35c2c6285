import { loadHalf } from "../intent-harness.js";
import { definitionFields } from "../../../../src/mcp/audit/audit-tool.js";
import { findFeatures } from "../../../../src/mcp/audit/intent/features.js";
const [set, ...ids] = process.argv.slice(2);
const half = loadHalf(set as any);
const tools = [...half.benign.flatMap((s) => s.tools.map((t) => [`${s.server}/${t.name}`, t] as const)), ...half.attacks.flatMap((c) => c.server.tools.map((t) => [c.id, t] as const))];
for (const [id, tool] of tools) {
  if (!ids.includes(id)) continue;
  console.log(`=== ${id}`);
  for (const f of definitionFields(tool).fields) {
    const feats = findFeatures(f.text);
    if (feats.length) console.log(`  ${f.jsonPath}: ${feats.map((x) => `${x.feature}«${x.evidence}»`).join("  ")}`);
  }
}
