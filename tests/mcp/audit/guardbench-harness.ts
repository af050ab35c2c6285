import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { auditContent, auditServer, verdictOf, type AuditedTool, type Finding, type Verdict } from "../../../src/mcp/audit/index.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
/** Vendored in the repository (see tests/fixtures/guardbench/README.md for where it came from). */
export const corpusDir = path.join(repoRoot, "tests", "fixtures", "guardbench");
export const listingsFile = path.join(repoRoot, "tests", "fixtures", "real-server-tool-listings.json");

export interface CorpusCase {
  readonly id: string;
  readonly bucket: "attacks" | "benign" | "warn";
  readonly category: string | null;
  readonly expected: { action: "pass" | "warn" | "block" };
  readonly message: Record<string, unknown>;
}

export function loadCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const bucket of ["attacks", "benign", "warn"]) {
    const dir = path.join(corpusDir, "cases", bucket);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
      cases.push(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CorpusCase);
    }
  }
  return cases;
}

export function loadListings(): Record<string, AuditedTool[]> {
  return JSON.parse(readFileSync(listingsFile, "utf8")) as Record<string, AuditedTool[]>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type CaseKind = "definition" | "content";

/**
 * A tools/list result or an initialize result is a tool definition (what the model is told about
 * tools); everything else — tool results, resources, prompts, sampling and elicitation requests,
 * outgoing call arguments — is content.
 */
export function caseKind(message: Record<string, unknown>): CaseKind {
  const result = message.result;
  if (isRecord(result) && (Array.isArray(result.tools) || "protocolVersion" in result || typeof result.instructions === "string")) return "definition";
  return "content";
}

export interface CaseOutcome {
  readonly kind: CaseKind;
  readonly verdict: Verdict;
  readonly findings: readonly Finding[];
  /** Tool definitions screened (definition cases) — the unit of the benign false-positive rate. */
  readonly tools: ReadonlyArray<{ name: string; verdict: Verdict }>;
}

export function auditCase(c: CorpusCase): CaseOutcome {
  const kind = caseKind(c.message);
  if (kind === "definition") {
    const result = c.message.result as Record<string, unknown>;
    const tools = (Array.isArray(result.tools) ? result.tools : []) as AuditedTool[];
    const instructions = typeof result.instructions === "string" ? result.instructions : undefined;
    const report = auditServer({ serverName: c.id, instructions, tools }, { otherServers: [] });
    return {
      kind,
      verdict: report.verdict,
      findings: report.findings,
      tools: tools.map((t) => ({ name: t.name, verdict: verdictOf(report.findings.filter((f) => f.location.tool === t.name)) })),
    };
  }
  const method = typeof c.message.method === "string" ? c.message.method : "result";
  const body = c.message.result ?? c.message.params;
  const params = isRecord(c.message.params) ? c.message.params : {};
  const tool = method === "tools/call" && typeof params.name === "string" ? params.name : undefined;
  const findings = auditContent(body, { tool, field: method });
  return { kind, verdict: verdictOf(findings), findings, tools: [] };
}
