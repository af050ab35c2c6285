import { buildSecondOpinionPrompt, parseSecondOpinionVerdict, auditServer, type AuditedTool } from "/work/w6/audit-tune/src/mcp/audit/index.js";
import { fakeReviewerVerdict } from "/work/w6/audit-tune/tests/mcp/audit/fake-reviewer.js";
import { definitionFields } from "/work/w6/audit-tune/src/mcp/audit/audit-tool.js";
import { isAboutContext } from "/work/w6/audit-tune/src/mcp/audit/intent/score.js";
import { identifierWords } from "/work/w6/audit-tune/src/mcp/audit/normalise.js";
import { toolUnits } from "/work/w6/audit-tune/src/mcp/audit/intent/tool-intent.js";
import { featuresOf, probabilityOf, FEATURES } from "/work/w6/audit-tune/src/mcp/audit/intent/model.js";
import { loadHalf, type HalfName } from "/work/w6/audit-tune/tests/mcp/audit/intent-harness.js";
import { loadListings } from "/work/w6/audit-tune/tests/mcp/audit/guardbench-harness.js";
const ids = process.argv.slice(2);
const full = process.env.FULL === "1";
function show(tool: AuditedTool, server: string, instructions?: string, all: AuditedTool[] = [tool], others: any[] = []) {
  const report = auditServer({ serverName: server, tools: all, instructions }, { otherServers: others });
  report.findings.splice(0, report.findings.length, ...report.findings.filter((f) => f.location.tool === tool.name || f.location.tool === undefined));
  const { fields } = definitionFields(tool);
  const v = featuresOf(toolUnits(fields, new Set(all.map((t) => t.name))), isAboutContext(identifierWords(tool.name).join(" ")));
  const p = probabilityOf(v.values);
  const set = [...v.evidence.entries()].map(([i, e]) => `${FEATURES[i]}«${e.slice(0, 50)}»`);
  const nonce = "0123456789abcdef0123456789abcdef";
  const fv = fakeReviewerVerdict(buildSecondOpinionPrompt(tool, nonce).user);
  console.log(`== ${server}/${tool.name}  p=${p.toFixed(3)} features: ${set.join(" ")}`);
  for (const f of report.findings) console.log(`   ${f.severity} ${f.rule} @${f.location.jsonPath}: ${f.evidence.slice(0, 160)}`);
  console.log(`   reviewer: ${fv.verdict} ${fv.reasons.join(";")} «${fv.evidence.join("")}»`);
  if (full) console.log(JSON.stringify(tool, null, 1).slice(0, 3000));
}
for (const name of ["tuning", "heldout-v2", "heldout-v3", "benign-extra", "benign-extra-2", "tuning-v5"] as HalfName[]) {
  let half; try { half = loadHalf(name); } catch { continue; }
  for (const c of half.attacks) if (ids.includes(c.id)) { console.log(`## ${c.id} ${c.family} ${c.language} instr=${JSON.stringify(c.server.instructions ?? "").slice(0,400)} others=${JSON.stringify(c.otherServers)}`); for (const t of c.server.tools) show(t, c.server.name, c.server.instructions, c.server.tools, c.otherServers ?? []); }
  for (const s of half.benign) for (const t of s.tools) if (ids.includes(`${s.server}/${t.name}`)) show(t, s.server, undefined, s.tools, half.benign.filter((o) => o.server !== s.server).map((o) => ({ name: o.server, toolNames: o.tools.map((x) => x.name) })));
}
for (const [server, tools] of Object.entries(loadListings())) for (const t of tools) if (ids.includes(`listing:${server}/${t.name}`)) show(t, server);
