import { acceptCommand, isBlockedHeld, type HeldReason, type HeldTool } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { displayInline } from "../../../terminal/display.js";
import { commandHint, noTerminalHint } from "../../../terminal/hints.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import type { LaunchOutcome } from "./approve-launch.js";
import type { HeldReview } from "./approve-tools.js";
import { counted } from "../../../util/counted.js";

export interface StillHeld {
  readonly tool: string;
  readonly reason: HeldReason;
  readonly why: string;
  /** The command that accepts it; absent for tools that are never exposed. */
  readonly accept?: string;
  readonly findings: ReadonlyArray<{ readonly severity: string; readonly rule: string }>;
}

/** What `mcp approve` did, as printed (text) and returned (--json). */
export interface ApproveReport {
  readonly server: string;
  readonly launch?: LaunchOutcome;
  readonly tools?: {
    readonly module: string;
    /** Tools guest code and the model can use now. */
    readonly available: number;
    readonly accepted: readonly string[];
    readonly stillHeld: readonly StillHeld[];
    readonly changedSinceReview: readonly string[];
    readonly notListed: readonly string[];
  };
  readonly unmatchedAcceptBlocked?: readonly string[];
  /** True when the server is approved and nothing is held. */
  readonly ok: boolean;
}

/** Each tool still held after the review (from a fresh trust decision), with why and what to run. */
export function stillHeld(server: string, heldNow: readonly HeldTool[], review: HeldReview | undefined, named: ReadonlySet<string>, context: CommandContext): StillHeld[] {
  const changed = new Set(review?.outcome?.changedSinceReview ?? []);
  return heldNow.map((h) => {
    const findings = h.findings.map((f) => ({ severity: f.severity, rule: f.rule }));
    if (h.reason === "unsafe-name") return { tool: h.name, reason: h.reason, why: "never exposed: its name holds control or invisible characters", findings };
    const accept = commandHint(context, acceptCommand(server, h).replace(/^mcpvm /, ""));
    if (changed.has(h.name)) return { tool: h.name, reason: h.reason, why: "changed again after it was shown; review it again", accept, findings };
    if (isBlockedHeld(h) && !named.has(h.name)) return { tool: h.name, reason: h.reason, why: "block-level audit findings: --yes does not accept it, name it with --accept-blocked", accept, findings };
    const why = review?.declined === true ? (context.interactive ? "not accepted (you said no)" : `not accepted: no terminal to ask on, ${noTerminalHint(context, `mcp approve ${server} --tools`, "accept it unattended")}`) : `held (${h.reason})`;
    return { tool: h.name, reason: h.reason, why, accept, findings };
  });
}

export function exitOk(report: ApproveReport): boolean {
  return report.launch?.state !== "not-approved" && (report.tools?.stillHeld.length ?? 0) === 0;
}

export function writeApproveReport(report: ApproveReport, context: CommandContext): void {
  if (context.json) {
    writeJson(context.io.stdout, report);
    return;
  }
  const { stdout: out, stderr: err } = context.io;
  const { green, yellow, bold } = context.colours;
  const show = displayInline;
  const launch = report.launch;
  if (launch?.state === "approved") writeLine(out, `${green("approved")} ${report.server}`);
  else if (launch?.state === "already-approved") writeLine(out, `${report.server} is already approved`);
  else if (launch?.state === "not-approved") writeLine(err, yellow(`Not approved: ${launch.reason ?? "declined"}.`));
  for (const name of report.unmatchedAcceptBlocked ?? []) writeLine(err, yellow(`--accept-blocked ${show(name)}: no held tool has that name`));
  const tools = report.tools;
  if (tools === undefined) return;
  if (tools.accepted.length > 0) writeLine(out, `${green("accepted")} ${tools.accepted.map(show).join(", ")}`);
  if (tools.changedSinceReview.length > 0) writeLine(err, yellow(`changed again since shown, not accepted: ${tools.changedSinceReview.map(show).join(", ")}`));
  if (tools.notListed.length > 0) writeLine(err, yellow(`not accepted, no longer listed under that name (or its name holds a secret): ${tools.notListed.map(show).join(", ")}`));
  if (tools.stillHeld.length === 0) {
    writeLine(out, `${counted(tools.available, "tool")} available as ${tools.module}; nothing held.`);
    return;
  }
  writeLine(err, yellow(bold(`Held tools stay hidden from guest code and the model; still held (${tools.stillHeld.length}):`)));
  for (const h of tools.stillHeld) writeLine(err, yellow(`  ${show(h.tool)}: ${show(h.why)}${h.accept === undefined ? "" : `; accept with \`${show(h.accept)}\``}`));
  writeLine(out, `${counted(tools.available, "tool")} available as ${tools.module}; ${tools.stillHeld.length} still held.`);
}
