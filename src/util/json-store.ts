import { readFile, stat } from "node:fs/promises";
import type { z } from "zod";
import { writeFileAtomic } from "./atomic-file.js";
import { McpvmError } from "./errors.js";
import { withFileLock } from "./file-lock.js";
import { parseJsonDocument } from "./json-document.js";
import { describeZodIssues } from "./zod-issues.js";

export type JsonStoreErrorCode = "STORE_CORRUPT" | "STORE_INSECURE";

export class JsonStoreError extends McpvmError<JsonStoreErrorCode> {}

/**
 * A small state file (approvals, pins, toolsets): validated on every read, written atomically
 * with mode 0600, never silently reset when corrupt, and not trusted when others can write it.
 * Updates are queued per file (one process) and locked across processes, re-reading inside the
 * lock, so two writers never lose each other's change.
 */
export class JsonFileStore<T> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly schema: z.ZodType<T>,
    private readonly empty: () => T,
    /** Said in errors: what the file is for and what stops working while it is broken. */
    private readonly purpose: string,
  ) {}

  async read(): Promise<T> {
    let text: string;
    try {
      const info = await stat(this.file);
      if (process.platform !== "win32" && (info.mode & 0o022) !== 0) {
        throw new JsonStoreError(
          "STORE_INSECURE",
          `${this.file} is writable by other users (mode ${(info.mode & 0o777).toString(8)}), so it cannot be trusted for ${this.purpose}. Fix it with: chmod 600 ${this.file}`,
          { data: { file: this.file } },
        );
      }
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return this.empty();
      throw error;
    }
    let raw: unknown;
    try {
      raw = parseJsonDocument(text);
    } catch (cause) {
      throw new JsonStoreError("STORE_CORRUPT", `${this.file} is not valid JSON (${(cause as Error).message}). It holds ${this.purpose}; fix or delete it.`, {
        data: { file: this.file },
        cause,
      });
    }
    const parsed = this.schema.safeParse(raw);
    if (!parsed.success) {
      throw new JsonStoreError("STORE_CORRUPT", `${describeZodIssues(this.file, parsed.error.issues)}\nIt holds ${this.purpose}; fix or delete it.`, {
        data: { file: this.file },
      });
    }
    return parsed.data;
  }

  async update<R>(mutate: (draft: T) => R): Promise<R> {
    const run = this.queue.catch(() => undefined).then(() =>
      withFileLock(this.file, async () => {
        const draft = await this.read();
        const result = mutate(draft);
        const checked = this.schema.parse(draft);
        await writeFileAtomic(this.file, `${JSON.stringify(checked, null, 2)}\n`, 0o600);
        return result;
      }),
    );
    this.queue = run;
    return run;
  }
}
