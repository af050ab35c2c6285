import { buildSecondOpinionPrompt, parseSecondOpinionVerdict, secondOpinionFinding, type AuditedTool } from "../../../../src/mcp/audit/index.js";
import { fakeReviewerVerdict } from "../fake-reviewer.js";
import { loadHalf } from "../intent-harness.js";
import { definitionFields } from "../../../../src/mcp/audit/audit-tool.js";
import { signalsOf, isAboutContext } from "../../../../src/mcp/audit/intent/score.js";
import { toolUnits } from "../../../../src/mcp/audit/intent/tool-intent.js";
import { identifierWords } from "../../../../src/mcp/audit/normalise.js";
const N = "0123456789abcdef0123456789abcdef";
for (const name of ["tuning", "heldout-v2", "heldout-v3", "benign-extra", "benign-extra-2"] as const) {
  const half = loadHalf(name);
  const rows: Array<[string, AuditedTool, AuditedTool[]]> = [...half.attacks.flatMap((c) => c.server.tools.map((t) => [`A ${c.id}`, t, c.server.tools] as [string, AuditedTool, AuditedTool[]])), ...half.benign.flatMap((s) => s.tools.map((t) => [`B ${s.server}/${t.name}`, t, s.tools] as [string, AuditedTool, AuditedTool[]]))];
  for (const [id, tool, all] of rows) {
    const v = parseSecondOpinionVerdict(JSON.stringify({ nonce: N, ...fakeReviewerVerdict(buildSecondOpinionPrompt(tool, N).user) }), N);
    const f = secondOpinionFinding(v, tool);
    if (f === undefined) continue;
    const fields = definitionFields(tool).fields.filter((x) => x.jsonPath === f.location.jsonPath);
    const about = isAboutContext(identifierWords(tool.name).join(" "));
    const units = toolUnits(fields, new Set(all.map((t) => t.name)));
    const sig = units.flatMap((u) => signalsOf(u, about).map((s) => s.signal));
    const toolSig = [...new Set(toolUnits(definitionFields(tool).fields, new Set(all.map((t) => t.name))).flatMap((u) => signalsOf(u, about).map((s) => s.signal)))];
    console.log(`${name} ${id} field[${sig.join(",")}] tool[${toolSig.join(",")}]`);
  }
}
