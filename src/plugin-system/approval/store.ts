import { readFile } from "node:fs/promises";
import { z } from "zod";
import { describeZodIssues, formatJsonPath } from "../../config/config-file.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { withFileLock } from "../../util/file-lock.js";
import { parseJsonDocument } from "../../util/json-document.js";
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
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, plugins: {} };
      throw new PluginError("PLUGIN_APPROVALS_UNREADABLE", `cannot read ${this.file}: ${(cause as Error).message}`, { data: { file: this.file }, cause });
    }
    let raw: unknown;
    try {
      raw = parseJsonDocument(text);
    } catch (cause) {
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
          await writeFileAtomic(this.file, `${JSON.stringify(file, null, 2)}\n`);
          return true;
        }),
      );
    this.queue = next;
    return next;
  }
}
