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
