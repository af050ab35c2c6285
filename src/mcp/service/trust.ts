import { displayInline, hasUnsafeDisplayChars } from "../../terminal/display.js";
import { shellWord } from "../../util/shell-word.js";
import { auditServer, type AuditReport, type AuditedTool, type Finding } from "../audit/index.js";
import { comparePins, pinServer, toolDefinitionHash, type FieldChange, type PinComparison, type ServerPins } from "../pins/index.js";

/**
 * Why a listed tool does not reach the sandbox or the model. `unsafe-name`: the name holds control,
 * bidi or invisible characters (a CR/LF can make a confirmation show another tool than the one
 * called); such a tool is never exposed, whatever the person answers.
 */
export type HeldReason = "findings" | "changed" | "new" | "unsafe-name";

export interface HeldTool {
  readonly name: string;
  /** Hash of the definition as held: accepting pins this exact definition, nothing the server lists later. */
  readonly hash: string;
  readonly reason: HeldReason;
  /** warn/block findings on this tool's definition. */
  readonly findings: readonly Finding[];
  /** For `changed`: what differs from the approved definition. */
  readonly changes: readonly FieldChange[];
}

export interface TrustInput<T extends AuditedTool> {
  readonly server: string;
  readonly instructions: string | undefined;
  /** The listing after allow/deny filters and caps. */
  readonly tools: readonly T[];
  readonly pins: ServerPins | undefined;
  readonly otherServers: ReadonlyArray<{ name: string; toolNames: string[] }>;
  /** Findings from outside the rule-based audit (the optional LLM second opinion); they can only add. */
  readonly extraFindings?: readonly Finding[];
}

export interface TrustDecision<T extends AuditedTool> {
  readonly trusted: readonly T[];
  readonly held: readonly HeldTool[];
  readonly report: AuditReport;
  readonly comparison: PinComparison;
  /** Pins to record now: on a server's first listing, its clean tools are pinned as approved. */
  readonly pinsToRecord: ServerPins | undefined;
  /** Instructions reach the model only when clean and unchanged since approval. */
  readonly instructionsTrusted: boolean;
  /** Why the server's instructions are kept from the model (for the person: `mcp approve`, `mcp info`). */
  readonly heldInstructions: HeldInstructions | undefined;
}

/** Server instructions kept from the model: their warn/block findings, or a change since approval. */
export interface HeldInstructions {
  readonly findings: readonly Finding[];
  readonly changed: boolean;
}

function isSerious(finding: Finding): boolean {
  return finding.severity === "warn" || finding.severity === "block";
}

/**
 * The trust decision for one listing. Approving a server's launch is trust in what it runs; its
 * first listing is then audited, and clean tools are pinned (trust on first use). Tools with
 * warn/block findings, tools whose definition changed since it was pinned (a rug pull) and tools
 * added later are held until the person accepts them.
 */
export function decideTrust<T extends AuditedTool>(input: TrustInput<T>): TrustDecision<T> {
  const audited = auditServer({ serverName: input.server, instructions: input.instructions, tools: input.tools }, { otherServers: [...input.otherServers] });
  const report = input.extraFindings === undefined || input.extraFindings.length === 0 ? audited : withExtraFindings(audited, input.extraFindings);
  const findingsByTool = new Map<string, Finding[]>();
  const instructionFindings: Finding[] = [];
  for (const finding of report.findings.filter(isSerious)) {
    if (finding.location.tool === undefined) instructionFindings.push(finding);
    else findingsByTool.set(finding.location.tool, [...(findingsByTool.get(finding.location.tool) ?? []), finding]);
  }
  const comparison = comparePins(input.pins, input.instructions, input.tools);
  const unchanged = new Set(comparison.unchanged);
  const changed = new Map(comparison.changed.map((c) => [c.name, c.changes]));
  const firstListing = input.pins === undefined;

  const trusted: T[] = [];
  const held: HeldTool[] = [];
  for (const tool of input.tools) {
    const findings = findingsByTool.get(tool.name) ?? [];
    const hash = toolDefinitionHash(tool);
    // Checked before pins: a pin recorded by an older version cannot expose such a name.
    if (hasUnsafeDisplayChars(tool.name)) held.push({ name: tool.name, hash, reason: "unsafe-name", findings, changes: [] });
    else if (unchanged.has(tool.name)) trusted.push(tool);
    else if (changed.has(tool.name)) held.push({ name: tool.name, hash, reason: "changed", findings, changes: changed.get(tool.name) ?? [] });
    else if (findings.length > 0) held.push({ name: tool.name, hash, reason: "findings", findings, changes: [] });
    else if (firstListing) trusted.push(tool);
    else held.push({ name: tool.name, hash, reason: "new", findings, changes: [] });
  }
  const instructionsTrusted = instructionFindings.length === 0 && (firstListing || !comparison.instructionsChanged);
  const pinsToRecord = firstListing ? pinServer(instructionsTrusted ? input.instructions : undefined, trusted) : undefined;
  const heldInstructions = instructionsTrusted || input.instructions === undefined ? undefined : { findings: instructionFindings, changed: comparison.instructionsChanged };
  return { trusted, held, report, comparison, pinsToRecord, instructionsTrusted, heldInstructions };
}

/** A held tool with a block-level finding: accepted only by name (`--accept-blocked`, or typed on a terminal). */
export function isBlockedHeld(held: HeldTool): boolean {
  return held.findings.some((f) => f.severity === "block");
}

export { shellWord };

/** The command that accepts this held tool (block-level ones by name). */
export function acceptCommand(server: string, held: HeldTool): string {
  return isBlockedHeld(held) ? `mcpvm mcp approve ${server} --tools --accept-blocked ${shellWord(held.name)}` : `mcpvm mcp approve ${server} --tools`;
}

/** Why a tool is held and how to review it; tool names are escaped (this text reaches terminals and the model). */
export function describeHeld(server: string, held: HeldTool): string {
  const tool = `${server}.${displayInline(held.name)}`;
  const how = `review it with \`mcpvm mcp info ${server}\` and accept it with \`${displayInline(acceptCommand(server, held))}\``;
  switch (held.reason) {
    case "unsafe-name":
      return `${tool} is never exposed: its name holds control or invisible characters, so a prompt could show another tool than the one called. Ask the server's author to rename it.`;
    case "changed":
      return `${tool} changed since it was approved (${held.changes.map((c) => displayInline(c.path)).join(", ")}) and is blocked until re-approved: ${how}.`;
    case "findings":
      return `${tool} has audit findings (${held.findings.map((f) => `${f.severity}: ${f.rule}`).join(", ")}) and is held until confirmed: ${how}.`;
    case "new":
      return `${tool} is new since the server was approved and needs approval: ${how}.`;
  }
}

function withExtraFindings(report: AuditReport, extra: readonly Finding[]): AuditReport {
  const findings = [...report.findings, ...extra];
  const counts = { info: 0, warn: 0, block: 0 };
  for (const f of findings) counts[f.severity] += 1;
  const verdict = counts.block > 0 ? "block" : counts.warn > 0 ? "warn" : counts.info > 0 ? "info" : "pass";
  return { ...report, findings, counts, verdict };
}
