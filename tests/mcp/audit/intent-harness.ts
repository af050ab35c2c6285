import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { auditServer, verdictOf, type AuditContext, type AuditedTool, type AuditReport, type AuditServerInput, type Finding, type Verdict } from "../../../src/mcp/audit/index.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const intentSetDir = path.join(repoRoot, "tests", "fixtures", "audit-intent");

export interface AttackCase {
  readonly id: string;
  readonly family: string;
  readonly language: string;
  readonly server: { name: string; instructions?: string; tools: AuditedTool[] };
  readonly otherServers: AuditContext["otherServers"];
}

export interface BenignServer {
  readonly server: string;
  readonly source: { repo: string; commit: string; path: string };
  readonly tools: AuditedTool[];
}

export interface IntentHalf {
  readonly attacks: AttackCase[];
  readonly benign: BenignServer[];
}

/**
 * `tuning`: set v1 (wave 3). `heldout-v2`: wave 4, measured once then tuned on. `heldout-v3`: wave 5, measured twice,
 * tuned on since wave 6. `tuning-v5`: wave-6 attacks aimed at blind spots. `benign-extra`, `benign-extra-2`: real
 * servers' tools (waves 5 and 6). All are tuning material; see tests/fixtures/audit-intent/README.md.
 */
export type HalfName = "tuning" | "heldout-v2" | "heldout-v3" | "heldout-v4" | "heldout-v5" | "heldout-v6" | "heldout-v7" | "heldout-v8" | "heldout-v9" | "heldout-v10" | "heldout-v11" | "heldout-v12" | "heldout-v13" | "heldout-v14" | "heldout-v15" | "heldout-v16" | "heldout-v17" | "heldout-v18" | "heldout-v19" | "heldout-v20" | "heldout-v21" | "heldout-v22" | "heldout-v23" | "benign-extra" | "benign-extra-2" | "benign-extra-3" | "benign-extra-4" | "benign-extra-5" | "tuning-v5" | "benign-voice" | "benign-voice-heldout" | "benign-multilingual" | "training-w19a" | "training-w19b" | "training-w19c";

const loaded = new Map<HalfName, IntentHalf>();

/** One parse per set and process (the measurements score each set several times, with different second opinions). */
export function loadHalf(name: HalfName): IntentHalf {
  let half = loaded.get(name);
  if (half === undefined) {
    half = JSON.parse(readFileSync(path.join(intentSetDir, `${name}.json`), "utf8")) as IntentHalf;
    loaded.set(name, half);
  }
  return half;
}

// The rules' report per listing (the same objects, scored again with another second opinion, are not audited again).
const reports = new WeakMap<object, AuditReport>();
function audited(key: object, input: AuditServerInput, context: AuditContext): AuditReport {
  let report = reports.get(key);
  if (report === undefined) {
    report = auditServer(input, context);
    reports.set(key, report);
  }
  return report;
}

export interface Scored {
  readonly id: string;
  readonly verdict: Verdict;
  readonly findings: readonly Finding[];
}

export const isFlagged = (v: Verdict): boolean => v === "warn" || v === "block";

/**
 * One attack case is caught when the server's report is warn or block: that holds the tool (or the
 * server's instructions) until a person accepts it. `extra` adds findings from outside the rules
 * (the LLM second opinion) for a tool, as the service does.
 */
/** Findings from outside the rules for one tool, given its server's listing (the LLM second opinion weighs it as the rules do). */
export type ExtraFindings = (tool: AuditedTool, ownToolNames: ReadonlySet<string>) => Finding[];

export function scoreAttack(c: AttackCase, extra: ExtraFindings = () => []): Scored {
  const report = audited(c, { serverName: c.server.name, instructions: c.server.instructions, tools: c.server.tools }, { otherServers: c.otherServers });
  const own = new Set(c.server.tools.map((t) => t.name));
  const findings = [...report.findings, ...c.server.tools.flatMap((t) => extra(t, own))];
  return { id: c.id, verdict: verdictOf(findings), findings };
}

/** Every benign tool, audited with its own server's listing and the half's other servers configured beside it. */
export function scoreBenign(half: IntentHalf, extra: ExtraFindings = () => []): Scored[] {
  const out: Scored[] = [];
  for (const s of half.benign) {
    const others = half.benign.filter((o) => o.server !== s.server).map((o) => ({ name: o.server, toolNames: o.tools.map((t) => t.name) }));
    const report = audited(s, { serverName: s.server, tools: s.tools }, { otherServers: others });
    const own = new Set(s.tools.map((t) => t.name));
    for (const tool of s.tools) {
      const findings = [...report.findings.filter((f) => f.location.tool === tool.name), ...extra(tool, own)];
      out.push({ id: `${s.server}/${tool.name}`, verdict: verdictOf(findings), findings });
    }
  }
  return out;
}
