import { findAnnotationMismatch } from "./annotations.js";
import { renderEvidence } from "./evidence.js";
import { findExfiltrationParameter } from "./exfil-params.js";
import { isAboutContext } from "./intent/score.js";
import { featuresOf, modelHit } from "./intent/model.js";
import { maskOwnTools, paramNamesOf } from "./intent/score.js";
import { textModelHit } from "./intent/text-model.js";
import { toolIntent, toolModelHit, toolUnits } from "./intent/tool-intent.js";
import { identifierWords, textViews } from "./normalise.js";
import { findSafeguardOff } from "./safeguard-off.js";
import { findSecondFactorRequest } from "./second-factor.js";
import { imitatedTool } from "./lookalike.js";
import { toFinding } from "./location.js";
import { walkSchema, type SchemaField, type SchemaWalk } from "./schema-walk.js";
import { findShadowing } from "./shadowing.js";
import { findSplitRuns } from "./encoded.js";
import { auditText, type ScoredHit } from "./text-audit.js";
import {
  SEVERITY_RANK,
  type AuditContext,
  type AuditedTool,
  type AuditReport,
  type AuditServerInput,
  type Finding,
  type Severity,
  type Verdict,
} from "./types.js";

const SPEC_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Every string of a definition that is screened: name, title, description, string annotations, both schemas. */
export function definitionFields(tool: AuditedTool): { fields: SchemaField[]; input: SchemaWalk; output: SchemaWalk } {
  const input = walkSchema(tool.inputSchema, "$.inputSchema");
  const output = walkSchema(tool.outputSchema, "$.outputSchema");
  return { fields: [...toolFields(tool), ...input.fields, ...output.fields], input, output };
}

function toolFields(tool: AuditedTool): SchemaField[] {
  const fields: SchemaField[] = [{ field: "name", jsonPath: "$.name", text: tool.name, kind: { kind: "identifier" } }];
  if (typeof tool.title === "string") fields.push({ field: "title", jsonPath: "$.title", text: tool.title, kind: { kind: "prose" } });
  if (typeof tool.description === "string") {
    fields.push({ field: "description", jsonPath: "$.description", text: tool.description, kind: { kind: "prose" } });
  }
  for (const [key, value] of Object.entries(tool.annotations ?? {})) {
    if (typeof value === "string") fields.push({ field: "annotations", jsonPath: `$.annotations.${key}`, text: value, kind: { kind: "prose" } });
  }
  return fields;
}

function auditTool(tool: AuditedTool, context: AuditContext, ownToolNames: ReadonlySet<string>): Finding[] {
  const { fields, input, output } = definitionFields(tool);
  const findings: Finding[] = [];
  const aboutContext = isAboutContext(identifierWords(tool.name).join(" "));
  const ownParams = paramNamesOf(fields.map((f) => f.jsonPath));
  const ownValues = new Set(fields.filter((f) => f.kind.kind === "value" && (f.field === "const" || f.field === "enum")).map((f) => f.text));
  for (const f of fields) {
    const location = { tool: tool.name, field: f.field, jsonPath: f.jsonPath };
    for (const hit of auditText(f.text, f.kind, 0, { aboutContext, ownTools: ownToolNames, ownParams })) findings.push(toFinding(hit, location));
    if (f.kind.kind === "prose") for (const hit of findShadowing(f.text, context, ownToolNames, ownValues)) findings.push(toFinding(hit, location));
  }
  for (const [walk, path] of [[input, "$.inputSchema"], [output, "$.outputSchema"]] as const) {
    if (walk.truncated) {
      findings.push(toFinding({ rule: "unscreened-remainder", evidence: "schema deeper than 64 levels or larger than 5000 nodes" }, { tool: tool.name, field: "schema", jsonPath: path }));
    }
  }
  for (const property of input.properties) {
    const hit = findExfiltrationParameter(property, tool);
    if (hit !== undefined) findings.push(toFinding(hit, { tool: tool.name, field: "parameter", jsonPath: property.jsonPath }));
    const off = findSafeguardOff(textViews(property.description).folded, property.name);
    if (off !== undefined) findings.push(toFinding(off, { tool: tool.name, field: "parameter", jsonPath: property.jsonPath }));
  }
  const signIn = findSecondFactorRequest(input.properties);
  if (signIn !== undefined) findings.push(toFinding(signIn, { tool: tool.name, field: "parameter", jsonPath: "$.inputSchema" }));
  const normalised = tool.name.normalize("NFKC");
  if (!SPEC_TOOL_NAME.test(normalised)) {
    const severity: Severity = /[^\p{ASCII}]/u.test(normalised) ? "warn" : "info";
    findings.push(toFinding({ rule: "identifier-characters", severity, evidence: renderEvidence(tool.name) }, { tool: tool.name, field: "name", jsonPath: "$.name" }));
  }
  const mismatch = findAnnotationMismatch(tool);
  if (mismatch !== undefined) findings.push(toFinding(mismatch, { tool: tool.name, field: "annotations", jsonPath: "$.annotations.readOnlyHint" }));
  // A payload split over fields decodes only when its parts are joined.
  for (const hit of splitPayloadHits(fields)) findings.push(toFinding(hit, { tool: tool.name, field: "definition", jsonPath: "$" }));
  // Only when no single field already said as much: the whole tool's signals taken together.
  const intent = toolIntent(tool, fields, ownToolNames);
  const fieldIntent = findings.filter((f) => f.rule === "intent" || f.rule === "encoded-payload").map((f) => SEVERITY_RANK[f.severity]);
  if (intent !== undefined && SEVERITY_RANK[intent.severity ?? "warn"] > Math.max(0, ...fieldIntent)) {
    findings.push(toFinding(intent, { tool: tool.name, field: "definition", jsonPath: "$" }));
  }
  // The fitted model, only where neither the rules nor the hand-weighted score reached warn.
  if (verdictOf(findings) !== "warn" && verdictOf(findings) !== "block") {
    const model = toolModelHit(tool, fields, ownToolNames);
    if (model !== undefined) findings.push(toFinding(model, { tool: tool.name, field: "definition", jsonPath: "$" }));
  }
  // The text model reads wording the rules have no pattern for; also only where nothing above reached warn.
  if (verdictOf(findings) !== "warn" && verdictOf(findings) !== "block") {
    const text = textModelHit(toolUnits(fields, ownToolNames, false));
    if (text !== undefined) findings.push(toFinding(text, { tool: tool.name, field: "definition", jsonPath: "$" }));
  }
  const imitated = imitatedTool(tool.name, context.otherServers);
  if (imitated !== undefined) {
    findings.push(
      toFinding(
        { rule: "lookalike-tool-name", evidence: `${renderEvidence(tool.name)} reads as ${imitated.server}/${renderEvidence(imitated.tool)}` },
        { tool: tool.name, field: "name", jsonPath: "$.name" },
      ),
    );
  }
  for (const server of context.otherServers) {
    if (server.toolNames.includes(tool.name)) {
      findings.push(toFinding({ rule: "tool-name-collision", evidence: `${server.name} also lists ${renderEvidence(tool.name)}` }, { tool: tool.name, field: "name", jsonPath: "$.name" }));
    }
  }
  return findings;
}

function splitPayloadHits(fields: readonly SchemaField[]): ScoredHit[] {
  const texts = fields.filter((f) => f.kind.kind !== "identifier").map((f) => f.text.slice(0, 4096));
  const out: ScoredHit[] = [];
  for (const run of findSplitRuns(texts)) {
    const inner = auditText(run.decoded, { kind: "prose" }, 1);
    const worst = inner.filter((h) => h.severity !== "info");
    if (worst.length === 0) continue;
    const severity = worst.some((h) => h.severity === "block") ? "block" : "warn";
    const rules = [...new Set(worst.map((h) => h.rule))].join(", ");
    out.push({ rule: "encoded-payload", severity, evidence: renderEvidence(`${run.encoding} split over fields → "${renderEvidence(run.decoded, 80)}" (${rules})`) });
    break;
  }
  return out;
}

/** Screen one listed tool definition: name, title, description, every schema string, annotations. */
export function auditToolDefinition(tool: AuditedTool, context: AuditContext): Finding[] {
  return auditTool(tool, context, new Set([tool.name]));
}

export function verdictOf(findings: readonly { severity: Severity }[]): Verdict {
  let verdict: Verdict = "pass";
  for (const f of findings) if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[verdict]) verdict = f.severity;
  return verdict;
}

/**
 * Server-level text the model reads beside the tools: the `instructions` a server sends at
 * initialize, and the `description` a config entry carries (often from an imported file). Each is
 * screened as a tool description is: the same text rules, and shadowing of other servers' tools.
 */
export function auditServerText(field: "instructions" | "description", text: string | undefined, context: AuditContext, ownToolNames: ReadonlySet<string> = new Set()): Finding[] {
  if (text === undefined || text.length === 0) return [];
  const location = { field, jsonPath: `$.${field}` };
  const findings: Finding[] = [];
  for (const hit of auditText(text, { kind: "prose" }, 0, { ownTools: ownToolNames })) findings.push(toFinding(hit, location));
  for (const hit of findShadowing(text, context, ownToolNames)) findings.push(toFinding(hit, location));
  if (verdictOf(findings) !== "warn" && verdictOf(findings) !== "block") {
    const unit = { text: maskOwnTools(text, ownToolNames), role: "prose" } as const;
    const model = modelHit(featuresOf([unit])) ?? textModelHit([{ text: maskOwnTools(text, ownToolNames, undefined, false), role: "prose" }]);
    if (model !== undefined) findings.push(toFinding(model, location));
  }
  return findings;
}

/** Screen a server's whole listing plus its initialize instructions; the verdict is the highest severity found. */
export function auditServer(server: AuditServerInput, context: AuditContext): AuditReport {
  const own = new Set(server.tools.map((t) => t.name));
  const findings: Finding[] = [...auditServerText("instructions", server.instructions, context, own)];
  for (const tool of server.tools) findings.push(...auditTool(tool, context, own));
  const counts = { info: 0, warn: 0, block: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return { serverName: server.serverName, verdict: verdictOf(findings), counts, findings };
}
