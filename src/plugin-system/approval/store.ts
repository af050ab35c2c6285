import { z } from "zod";
import { describeZodIssues, formatJsonPath } from "../../config/config-file.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { withFileLock } from "../../util/file-lock.js";
import { JsonDocumentError, parseJsonDocument, reservedKeyPath } from "../../util/json-document.js";
import { readFailure, readOwnFile, StateFileTooLargeError } from "../../util/own-file.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { InvalidUtf8Error } from "../../util/utf8.js";
import { auditRuleIdSchema, riskLevelSchema } from "../audit/rules.js";
import { PluginError } from "../errors.js";
import { capabilitySchema, PLUGIN_NAME_PATTERN } from "../manifest.js";

// The schemas of approved-plugins.json are built on their first parse (z.lazy): a process with no
// plugin enabled never reads the file, and zod constructs every part of a schema when it is defined.

/** What the audit said when the user approved; kept so `plugin info` can show what was accepted. */
export const auditSummarySchema = z.lazy(() =>
  z
    .object({
      files: z.number().int().nonnegative(),
      findings: z.number().int().nonnegative(),
      byRisk: z.object({ low: z.number().int(), medium: z.number().int(), high: z.number().int(), critical: z.number().int() }).strict(),
      highestRisk: riskLevelSchema.nullable(),
      undeclaredCapabilities: z.array(capabilitySchema),
      rules: z.array(auditRuleIdSchema),
    })
    .strict(),
);

export const approvalRecordSchema = z.lazy(() =>
  z
    .object({
      hash: z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 hex digest"),
      approvedAt: z.iso.datetime(),
      approvedBy: z.string().min(1),
      source: z.enum(["native", "user"]),
      version: z.string(),
      audit: auditSummarySchema,
    })
    .strict(),
);

export const approvalsFileSchema = z.lazy(() =>
  z
    .object({
      version: z.literal(1),
      plugins: z.record(z.string().regex(PLUGIN_NAME_PATTERN), approvalRecordSchema),
    })
    .strict(),
);

export type AuditSummary = z.infer<typeof auditSummarySchema>;
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;
export type ApprovalsFile = z.infer<typeof approvalsFileSchema>;

/**
 * approved-plugins.json (mode 0600, written atomically). A missing file means nothing is approved;
 * an unreadable or invalid one is an error the user must look at — never silently reset, because
 * resetting would hide tampering.
 */
export class PluginApprovalStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  async load(): Promise<ApprovalsFile> {
    // The reader every state file shares: no link followed, yours and not writable by others, size-capped.
    const read = await readOwnFile(this.file, STATE_FILE_LIMITS.pluginApprovals).catch((cause: unknown) => {
      if (cause instanceof StateFileTooLargeError) {
        throw new PluginError("PLUGIN_APPROVALS_TOO_LARGE", `${cause.problem} It holds your plugin approvals (no plugin loads meanwhile). Move it away and approve the plugins again, or restore it from a backup: mv ${this.file} ${this.file}.too-large   (nothing was changed)`, {
          data: { file: this.file, size: cause.size, maxBytes: cause.maxBytes },
          cause,
        });
      }
      if (cause instanceof InvalidUtf8Error) {
        throw new PluginError("PLUGIN_APPROVALS_CORRUPT", `${this.file} is ${cause.message}; open it in an editor, fix that line and save it as UTF-8, or delete it and approve the plugins again (nothing was changed)`, {
          data: { file: this.file, byte: cause.byte, line: cause.line },
          cause,
        });
      }
      const failure = readFailure(this.file, cause);
      throw new PluginError("PLUGIN_APPROVALS_UNREADABLE", `${this.file} ${failure.problem}; fix it with: ${failure.fix}`, { data: { file: this.file }, cause });
    });
    if (read === undefined) return { version: 1, plugins: {} };
    if ("problem" in read) {
      throw new PluginError("PLUGIN_APPROVALS_UNREADABLE", `${this.file} ${read.problem.problem}, so it cannot be trusted for your plugin approvals. Fix it with: ${read.problem.fix}`, { data: { file: this.file } });
    }
    const text = read.text;
    let raw: unknown;
    try {
      // Refused, not dropped: a dropped key's approval would vanish, and the next approval would write the file without it.
      raw = parseJsonDocument(text, { refuseReservedKeys: true });
    } catch (cause) {
      const reserved = cause instanceof JsonDocumentError && cause.kind === "reserved-key" ? cause.problems[0] : undefined;
      if (reserved !== undefined) {
        const at = reserved.path === undefined ? "" : `${formatJsonPath(reserved.path)} `;
        throw new PluginError("PLUGIN_APPROVALS_CORRUPT", `${this.file} has a key mcpvm refuses: ${at}(line ${reserved.line}, column ${reserved.column}): ${reserved.message} in an editor (nothing was changed)`, {
          data: { file: this.file },
          cause,
        });
      }
      throw new PluginError("PLUGIN_APPROVALS_CORRUPT", `${this.file} is not valid JSON (${(cause as Error).message}); fix or delete it, then approve the plugins again`, {
        data: { file: this.file },
        cause,
      });
    }
    const parsed = approvalsFileSchema.safeParse(raw);
    if (!parsed.success) {
      throw new PluginError("PLUGIN_APPROVALS_CORRUPT", `${describeZodIssues(this.file, parsed.error.issues)}\nFix or delete it, then approve the plugins again.`, {
        data: { file: this.file, issues: parsed.error.issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })) },
      });
    }
    return parsed.data;
  }

  async get(name: string): Promise<ApprovalRecord | undefined> {
    const file = await this.load();
    return Object.hasOwn(file.plugins, name) ? file.plugins[name] : undefined;
  }

  async set(name: string, record: ApprovalRecord): Promise<void> {
    await this.update((file) => {
      file.plugins[name] = approvalRecordSchema.parse(record);
      return true;
    });
  }

  /** Returns whether there was an approval to remove. */
  async remove(name: string): Promise<boolean> {
    return this.update((file) => {
      if (!Object.hasOwn(file.plugins, name)) return false;
      delete file.plugins[name];
      return true;
    });
  }

  /** Read-modify-write, serialised in this process and locked across processes, so no approval is lost. */
  private update(mutate: (file: ApprovalsFile) => boolean): Promise<boolean> {
    const next = this.queue
      .catch(() => undefined)
      .then(() =>
        withFileLock(this.file, async () => {
          const file = await this.load();
          if (!mutate(file)) return false;
          // Written, such a key (a plugin named "constructor") would make the file unreadable: refuse it, unwritten.
          const reserved = reservedKeyPath(file);
          if (reserved !== undefined) {
            throw new PluginError("PLUGIN_APPROVALS_CORRUPT", `${formatJsonPath(reserved)}: "${String(reserved.at(-1))}" cannot be stored in ${this.file} (mcpvm never reads __proto__, constructor or prototype keys); rename the plugin. ${this.file} was not changed.`, {
              data: { file: this.file },
            });
          }
          await writeFileAtomic(this.file, `${JSON.stringify(file, null, 2)}\n`);
          return true;
        }),
      );
    this.queue = next;
    return next;
  }
}
