/**
 * The examples the text model is fitted and measured on, with what the rest of the audit says about each: an attack
 * case is one example (its tools and its instructions, each a scored item), each benign tool another. Only spent and
 * released sets are read here; the held-out sets (MEASURED) are scored only by scripts/text-model-measure.ts, after the
 * design is frozen.
 */
import { auditServer, definitionFields, verdictOf } from "../../../../src/mcp/audit/audit-tool.js";
import { maskOwnTools } from "../../../../src/mcp/audit/intent/score.js";
import { toolUnits } from "../../../../src/mcp/audit/intent/tool-intent.js";
import type { AuditContext, AuditedTool } from "../../../../src/mcp/audit/types.js";
import { caseKind, loadCases, loadListings } from "../guardbench-harness.js";
import { loadHalf, type HalfName } from "../intent-harness.js";
import type { TextUnit } from "../../../../src/mcp/audit/intent/text-features.js";

/** One thing the model scores on its own: a tool's strings, or a server's instructions. */
export interface Item {
  readonly name: string;
  readonly units: TextUnit[];
}

export interface TextExample {
  readonly set: string;
  readonly id: string;
  readonly y: 0 | 1;
  readonly family: string;
  /** Whether the rest of the audit (rules and the hand-feature model, not the text model) holds it: warn or block. */
  readonly held: boolean;
  readonly items: Item[];
}

/**
 * Held-out sets measured once (v13–v19, waves 21–29) and released for tuning the rules in wave 30, and v20 (measured
 * once in wave 30, released in wave 31): their misses may be read and rule-check.ts diffs them. Wave 31 made them folds
 * of the text model too (a refit-and-reselect of its own, configs.ts); the shipped model's score on them before that
 * refit is the out-of-sample figure (scripts/text-model-before.ts).
 */
export const RELEASED_FOLDED = ["heldout-v13", "heldout-v14", "heldout-v15", "heldout-v16", "heldout-v17", "heldout-v18", "heldout-v19", "heldout-v20"] as const;
/**
 * Every held-out set released for tuning the rules: the folded ones above, v21 (measured once in wave 31, released
 * in wave 32) and v22 (measured once in wave 32, released in wave 33). v21 and v22 are no folds and no material of the
 * text model (waves 32 and 33 did not refit): their misses are read for rules only, so the shipped weights stay what
 * they were.
 */
export const RELEASED = [...RELEASED_FOLDED, "heldout-v21", "heldout-v22"] as const;
/**
 * Folds of leave-one-set-out: the spent held-out sets (v10–v12 since wave 19, v13–v20 since wave 31), each writer's
 * training set of wave 19 (leave-one-writer-out), and benign-multilingual (real Chinese, Japanese and Korean tools,
 * benign only: how much honest text in a script the model has not otherwise seen it holds).
 */
export const HELDOUT_FOLDS = ["heldout-v2", "heldout-v3", "heldout-v4", "heldout-v5", "heldout-v6", "heldout-v7", "heldout-v8", "heldout-v9", "heldout-v10", "heldout-v11", "heldout-v12", ...RELEASED_FOLDED] as const;
export const WRITER_FOLDS = ["training-w19a", "training-w19b", "training-w19c"] as const;
export const FOLDS = [...HELDOUT_FOLDS, ...WRITER_FOLDS, "benign-multilingual"] as const;
/** Always in the training part: tuning material that is no held-out set. */
export const ALWAYS = ["tuning", "tuning-v5", "benign-extra", "benign-extra-2", "benign-extra-3", "benign-extra-4", "benign-extra-5", "semantic-paraphrases", "corpus", "benign-voice"] as const;
/** Never fitted on, scored or printed while choosing: the lead measures them once the design is frozen. */
export const MEASURED = ["benign-voice-heldout"] as const;
export type TextSetName = (typeof FOLDS)[number] | (typeof ALWAYS)[number] | (typeof MEASURED)[number] | (typeof RELEASED)[number];

const held = (findings: ReadonlyArray<{ severity: string; rule: string }>): boolean => {
  const v = verdictOf(findings.filter((f) => f.rule !== "intent-text-model") as Parameters<typeof verdictOf>[0]);
  return v === "warn" || v === "block";
};

export function toolItem(tool: AuditedTool, own: ReadonlySet<string>): Item {
  return { name: tool.name, units: toolUnits(definitionFields(tool).fields, own, false).map((u) => ({ role: u.role, text: u.text })) };
}

export function instructionsItem(instructions: string, own: ReadonlySet<string>): Item {
  return { name: "(instructions)", units: [{ role: "prose", text: maskOwnTools(instructions, own, undefined, false) }] };
}

function attackExample(set: string, id: string, family: string, tools: readonly AuditedTool[], instructions: string | undefined, others: AuditContext["otherServers"]): TextExample {
  const own = new Set(tools.map((t) => t.name));
  const items = tools.map((t) => toolItem(t, own));
  if (instructions !== undefined && instructions.length > 0) items.push(instructionsItem(instructions, own));
  const report = auditServer({ serverName: id, instructions, tools }, { otherServers: others });
  return { set, id, y: 1, family, held: held(report.findings), items };
}

function benignExamples(set: string, server: string, tools: readonly AuditedTool[], others: AuditContext["otherServers"]): TextExample[] {
  const own = new Set(tools.map((t) => t.name));
  const report = auditServer({ serverName: server, tools }, { otherServers: others });
  return tools.map((t) => ({ set, id: `${server}/${t.name}`, y: 0 as const, family: "benign", held: held(report.findings.filter((f) => f.location.tool === t.name)), items: [toolItem(t, own)] }));
}

const othersOf = (servers: ReadonlyArray<{ server: string; tools: readonly AuditedTool[] }>, name: string): AuditContext["otherServers"] =>
  servers.filter((o) => o.server !== name).map((o) => ({ name: o.server, toolNames: o.tools.map((t) => t.name) }));

export function setExamples(name: TextSetName): TextExample[] {
  const out: TextExample[] = [];
  if (name === "corpus") {
    for (const c of loadCases()) {
      if (caseKind(c.message) !== "definition") continue;
      const result = c.message.result as { tools?: AuditedTool[]; instructions?: string } | undefined;
      const tools = (result?.tools ?? []) as AuditedTool[];
      if (c.bucket === "benign") out.push(...benignExamples(name, c.id, tools, []));
      else out.push(attackExample(name, c.id, c.category ?? "corpus", tools, typeof result?.instructions === "string" ? result.instructions : undefined, []));
    }
    const listings = Object.entries(loadListings()).map(([server, tools]) => ({ server, tools }));
    for (const { server, tools } of listings) out.push(...benignExamples(name, `listing:${server}`, tools, othersOf(listings, server)));
    return out;
  }
  const half = loadHalf(name as HalfName);
  for (const c of half.attacks) out.push(attackExample(name, c.id, c.family, c.server.tools, c.server.instructions, c.otherServers));
  for (const s of half.benign) out.push(...benignExamples(name, s.server, s.tools, othersOf(half.benign, s.server)));
  return out;
}
