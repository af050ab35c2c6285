import { expect } from "vitest";
import { auditServer, verdictOf, type AuditedTool } from "../../../src/mcp/audit/index.js";

/** Shared by the wave-8 sibling tests: a one-parameter tool, and a server's verdict with other servers configured. */
export const tool = (description: string, param?: string, name = "helper", extra: Record<string, unknown> = {}): AuditedTool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string", ...(param === undefined ? {} : { description: param }), ...extra } } },
});
export type Other = { name: string; toolNames: string[] };
export const verdict = (tools: AuditedTool[], instructions?: string, others: Other[] = []) =>
  verdictOf(auditServer({ serverName: "s", instructions, tools }, { otherServers: others }).findings);

/**
 * Honest look-alikes the text model warns on (wave 16: share_file and b-own-instead, 2 of the family tests' 261; wave 19's
 * refit: only "continue a conversation by id", 1 of 311; tests/fixtures/audit-intent/README.md). For these the test pins
 * what happens: every other rule passes them, and the one warn is the text model's.
 */
export const TEXT_MODEL_FALSE_HOLDS: ReadonlySet<string> = new Set(["continue a conversation by id"]);

export function expectOnlyTextModelWarn(tools: AuditedTool[]): void {
  const findings = auditServer({ serverName: "s", tools }, { otherServers: [] }).findings;
  expect(["pass", "info"]).toContain(verdictOf(findings.filter((f) => f.rule !== "intent-text-model")));
  expect(findings.filter((f) => f.severity === "warn" || f.severity === "block").map((f) => `${f.rule}:${f.severity}`)).toEqual(["intent-text-model:warn"]);
}
