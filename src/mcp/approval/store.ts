import { z } from "zod";
import { McpvmError } from "../../util/errors.js";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { approvalHash, type ApprovalSubject } from "./hash.js";
import { renderApprovalPrompt } from "./prompt.js";
import { approvalSummary } from "./summary.js";
import { launchTargetSchema, type LaunchTarget } from "./executable.js";

export type McpApprovalErrorCode = "MCP_NOT_APPROVED" | "MCP_APPROVAL_CHANGED" | "MCP_EXECUTABLE_CHANGED";

export class McpApprovalError extends McpvmError<McpApprovalErrorCode> {}

const approvalRecordSchema = z
  .object({
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    approvedAt: z.string(),
    transport: z.enum(["stdio", "http", "sse"]),
    /** Human-readable summary (command or URL, credentials masked: summary.ts) so the file can be reviewed by eye. */
    summary: z.string(),
    /** What the stdio launch resolved to when approved (absent for remote servers and older approvals). */
    runs: launchTargetSchema.optional(),
  })
  .strict();

const approvalsFileSchema = z
  .object({ version: z.literal(1), servers: z.record(z.string(), approvalRecordSchema) })
  .strict();

export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;
type ApprovalsFile = z.infer<typeof approvalsFileSchema>;

export type ApprovalStatus =
  | { readonly state: "approved"; readonly hash: string; readonly record: ApprovalRecord }
  | { readonly state: "unapproved"; readonly hash: string }
  | {
      readonly state: "changed";
      readonly hash: string;
      readonly record: ApprovalRecord;
      /** Set when the definition is the approved one but what it runs is not (executable, interpreter, package version). */
      readonly runsChanged?: readonly string[];
    };

/**
 * approved-mcp.json (mode 0600). Read on every check, so an approval revoked from another
 * process (the CLI while the REPL runs) takes effect on the very next connect.
 */
export class McpApprovalStore {
  private readonly store: JsonFileStore<ApprovalsFile>;

  constructor(
    readonly file: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.store = new JsonFileStore(file, approvalsFileSchema, () => ({ version: 1 as const, servers: {} }), "your MCP server approvals (no server starts meanwhile)", STATE_FILE_LIMITS.mcpApprovals);
  }

  async status(subject: ApprovalSubject): Promise<ApprovalStatus> {
    const hash = approvalHash(subject);
    const record = (await this.read()).servers[subject.name];
    if (record === undefined) return { state: "unapproved", hash };
    return record.hash === hash ? { state: "approved", hash, record } : { state: "changed", hash, record };
  }

  /** Throws a typed error carrying the approval prompt when the server may not start. */
  async require(subject: ApprovalSubject): Promise<void> {
    const status = await this.status(subject);
    if (status.state === "approved") return;
    const prompt = renderApprovalPrompt(subject, status.hash);
    const command = `mcpvm mcp approve ${subject.name}`;
    if (status.state === "changed") {
      throw new McpApprovalError(
        "MCP_APPROVAL_CHANGED",
        `MCP server "${subject.name}" changed since it was approved (command, args, env, url, headers, cwd, filters, confirm or description); it will not start until re-approved: run \`${command}\` (or /mcp approve ${subject.name}).`,
        { data: { server: subject.name, prompt, hash: status.hash } },
      );
    }
    throw new McpApprovalError(
      "MCP_NOT_APPROVED",
      `MCP server "${subject.name}" is not approved, so it was not started. Review it and run \`${command}\` (or /mcp approve ${subject.name}).`,
      { data: { server: subject.name, prompt, hash: status.hash } },
    );
  }

  /** The record `approve` would store, stored nowhere: what the audit log records before the approval is written. */
  recordFor(subject: ApprovalSubject, runs?: LaunchTarget): ApprovalRecord {
    return {
      hash: approvalHash(subject),
      approvedAt: this.clock().toISOString(),
      transport: subject.transport,
      summary: approvalSummary(subject),
      ...(runs === undefined ? {} : { runs }),
    };
  }

  async approve(subject: ApprovalSubject, runs?: LaunchTarget, record: ApprovalRecord = this.recordFor(subject, runs)): Promise<ApprovalRecord> {
    await this.store.update((file) => {
      file.servers[subject.name] = record;
    });
    return record;
  }

  /**
   * Records what a still-approved launch resolves to, when the approval did not know it yet (an
   * approval from before this was recorded, or an npx package version learnt after its first
   * download). Only while the stored hash is still `hash`: a concurrent re-approval wins.
   */
  async learnRuns(name: string, hash: string, runs: LaunchTarget): Promise<void> {
    await this.store.update((file) => {
      const record = file.servers[name];
      if (record !== undefined && record.hash === hash) file.servers[name] = { ...record, runs };
    });
  }

  /** Returns whether there was an approval to revoke. */
  async revoke(name: string): Promise<boolean> {
    return this.store.update((file) => {
      if (file.servers[name] === undefined) return false;
      delete file.servers[name];
      return true;
    });
  }

  async list(): Promise<Readonly<Record<string, ApprovalRecord>>> {
    return (await this.read()).servers;
  }

  private read(): Promise<ApprovalsFile> {
    return this.store.read();
  }
}
