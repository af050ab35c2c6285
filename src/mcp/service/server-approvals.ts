import type { AuditEvent } from "../../audit-log/index.js";
import { displayInline } from "../../terminal/display.js";
import { approvalHash, compareLaunchTargets, describeLaunchTarget, renderApprovalPrompt, requireLaunchEnvConfirmed, type ApprovalStatus, type McpApprovalStore } from "../approval/index.js";
import type { McpServerEntry } from "../config/index.js";
import type { ApprovalRecheck } from "./approval-recheck.js";
import { approvalSubject } from "./approval-subject.js";
import type { LaunchPin } from "./launch-pin.js";

export interface ServerApprovalsDeps {
  readonly approvals: McpApprovalStore;
  readonly launchPin: LaunchPin;
  /** The per-call re-check's cache, forgotten whenever this process changes an approval. */
  readonly recheck: ApprovalRecheck<McpServerEntry>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly entry: (name: string) => McpServerEntry;
  /** Drops the server's catalog and connection (a revoked server must not keep running). */
  readonly disconnect: (name: string) => Promise<void>;
  readonly recordAudit: (event: AuditEvent) => Promise<void>;
}

/** What a person approves before a server runs: its launch definition and what that really runs, shown, stored, revoked. */
export class ServerApprovals {
  constructor(private readonly deps: ServerApprovalsDeps) {}

  /**
   * "approved" only while the definition has the approved hash AND it still runs what was approved
   * (executable, `#!` interpreter, npx/uvx package version): otherwise "changed", with runsChanged.
   */
  async status(name: string): Promise<ApprovalStatus> {
    const entry = this.deps.entry(name);
    const status = await this.deps.approvals.status(approvalSubject(name, entry));
    if (status.state !== "approved" || status.record.runs === undefined) return status;
    // As it will be launched: pinned to the approved npx version, so a newer one in npx's cache is not a change.
    const current = await this.deps.launchPin.current(name, entry, status.record.runs);
    const changes = current === undefined ? [] : compareLaunchTargets(status.record.runs, current);
    return changes.length === 0 ? status : { state: "changed", hash: status.hash, record: status.record, runsChanged: changes };
  }

  /** The exact text a person sees before approving (CLI, REPL and refusals to the model alike). */
  async prompt(name: string): Promise<string> {
    const entry = this.deps.entry(name);
    const subject = approvalSubject(name, entry);
    const prompt = renderApprovalPrompt(subject, approvalHash(subject), this.deps.env);
    const lines: string[] = [];
    const target = await this.deps.launchPin.current(name, entry);
    if (target !== undefined) lines.push(`  ${displayInline(describeLaunchTarget(target))}`);
    const status = await this.status(name);
    if (status.state === "changed" && status.runsChanged !== undefined) lines.push(`  CHANGED since approval (same definition, different program): ${status.runsChanged.map(displayInline).join("; ")}`);
    // Above the closing warning, with the rest of the definition.
    const warning = prompt.lastIndexOf("\n\nWARNING: ");
    return warning === -1 ? [prompt, ...lines].join("\n") : [prompt.slice(0, warning), ...lines].join("\n") + prompt.slice(warning);
  }

  /**
   * Stores the approval of the launch definition. One that sets code-loading variables (NODE_OPTIONS,
   * LD_PRELOAD, …) needs `acceptLaunchEnv`: the person said yes to exactly that, not a plain yes.
   */
  async approve(name: string, options: { readonly acceptLaunchEnv?: boolean } = {}): Promise<void> {
    const entry = this.deps.entry(name);
    requireLaunchEnvConfirmed(name, entry.env, options.acceptLaunchEnv === true);
    const subject = approvalSubject(name, entry);
    const runs = await this.deps.launchPin.current(name, entry);
    const record = this.deps.approvals.recordFor(subject, runs);
    // Recorded before it is stored: an audit log that cannot be written (or a crash between the two)
    // leaves at worst an entry for an approval that never took effect, never an unrecorded approval.
    await this.deps.recordAudit({ event: "mcp.approve", subject: name, decision: "approved", details: { hash: record.hash, transport: record.transport, summary: record.summary, ...(record.runs === undefined ? {} : { runs: describeLaunchTarget(record.runs) }) } });
    await this.deps.approvals.approve(subject, runs, record);
    this.deps.recheck.forget();
  }

  /** Revoking disconnects at once; nothing reconnects without a new approval. */
  async revoke(name: string): Promise<boolean> {
    const revoked = await this.deps.approvals.revoke(name);
    this.deps.recheck.forget();
    await this.deps.recordAudit({ event: "mcp.revoke", subject: name, decision: revoked ? "revoked" : "not-approved" });
    await this.deps.disconnect(name);
    return revoked;
  }
}
