/**
 * Training and leave-one-set-out material for the semantic stage (src/mcp/audit/semantic/): every definition of the
 * spent sets as a bag of sentences, with whether the rules (the whole synchronous audit, fitted intent model included)
 * already hold it. Sets v1–v5, tuning v5, benign-extra(-2, -3, -4) and the public corpus — never a set that has not
 * been measured (v6 and later are not read here).
 */
import { auditServer, verdictOf } from "../../../src/mcp/audit/audit-tool.js";
import { instructionSentences, toolSentences, type Sentence } from "../../../src/mcp/audit/semantic/sentences.js";
import type { AuditContext, AuditedTool } from "../../../src/mcp/audit/types.js";
import { caseKind, loadCases, loadListings } from "./guardbench-harness.js";
import { loadHalf } from "./intent-harness.js";

export const SEMANTIC_SETS = ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "heldout-v5", "tuning-v5", "benign-extra", "benign-extra-2", "benign-extra-3", "benign-extra-4", "corpus"] as const;
export type SemanticSetName = (typeof SEMANTIC_SETS)[number];

export interface Bag {
  readonly set: SemanticSetName;
  readonly id: string;
  readonly family: string;
  readonly y: 0 | 1;
  /** The rules alone hold it (warn or block). */
  readonly held: boolean;
  readonly sentences: Sentence[];
}

const isHeld = (findings: Parameters<typeof verdictOf>[0]): boolean => ["warn", "block"].includes(verdictOf(findings));
const othersOf = (servers: ReadonlyArray<{ server: string; tools: readonly AuditedTool[] }>, name: string): AuditContext["otherServers"] =>
  servers.filter((o) => o.server !== name).map((o) => ({ name: o.server, toolNames: o.tools.map((t) => t.name) }));

function benignBags(set: SemanticSetName, server: string, tools: readonly AuditedTool[], others: AuditContext["otherServers"]): Bag[] {
  const report = auditServer({ serverName: server, tools }, { otherServers: others });
  return tools.map((t) => ({
    set,
    id: `${server}/${t.name}`,
    family: "benign",
    y: 0,
    held: isHeld(report.findings.filter((f) => f.location.tool === t.name)),
    sentences: toolSentences(t),
  }));
}

function attackBag(set: SemanticSetName, id: string, family: string, tools: readonly AuditedTool[], instructions: string | undefined, serverName: string, others: AuditContext["otherServers"]): Bag {
  const report = auditServer({ serverName, instructions, tools }, { otherServers: others });
  return { set, id, family, y: 1, held: isHeld(report.findings), sentences: [...instructionSentences(instructions), ...tools.flatMap((t) => toolSentences(t))] };
}

export function setBags(set: SemanticSetName): Bag[] {
  const bags: Bag[] = [];
  if (set === "corpus") {
    for (const c of loadCases()) {
      if (caseKind(c.message) !== "definition") continue;
      const result = c.message.result as { tools?: AuditedTool[]; instructions?: string } | undefined;
      const tools = (result?.tools ?? []) as AuditedTool[];
      if (c.bucket === "benign") bags.push(...benignBags(set, c.id, tools, []));
      else bags.push(attackBag(set, c.id, "corpus", tools, result?.instructions, c.id, []));
    }
    const listings = Object.entries(loadListings()).map(([server, tools]) => ({ server, tools }));
    for (const { server, tools } of listings) bags.push(...benignBags(set, server, tools, othersOf(listings, server)));
    return bags;
  }
  const half = loadHalf(set);
  for (const c of half.attacks) bags.push(attackBag(set, c.id, c.family, c.server.tools, c.server.instructions, c.server.name, c.otherServers));
  for (const s of half.benign) bags.push(...benignBags(set, s.server, s.tools, othersOf(half.benign, s.server)));
  return bags;
}
