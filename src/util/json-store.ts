import type { z } from "zod";
import { writeFileAtomic } from "./atomic-file.js";
import { McpvmError } from "./errors.js";
import { withFileLock } from "./file-lock.js";
import { parseJsonDocument } from "./json-document.js";
import { readFailure, readOwnFile } from "./own-file.js";
import { describeZodIssues } from "./zod-issues.js";

export type JsonStoreErrorCode = "STORE_CORRUPT" | "STORE_INSECURE" | "STORE_UNREADABLE";

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
    // Opened without following links and checked on the open file: a planted link or a file
    // another account owns or can write is refused, never read.
    const read = await readOwnFile(this.file).catch((cause: unknown) => {
      // Permission denied or a disk error: a set-up problem the person fixes (exit 3), not a crash.
      const failure = readFailure(this.file, cause);
      throw new JsonStoreError("STORE_UNREADABLE", `${this.file} ${failure.problem}. It holds ${this.purpose}; fix it with: ${failure.fix}`, {
        data: { file: this.file },
        cause,
      });
    });
    if (read === undefined) return this.empty();
    if ("problem" in read) {
      throw new JsonStoreError(
        "STORE_INSECURE",
        `${this.file} ${read.problem.problem}, so it cannot be trusted for ${this.purpose}. Fix it with: ${read.problem.fix}`,
        { data: { file: this.file } },
      );
    }
    const text = read.text;
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
