import type { z } from "zod";
import { writeFileAtomic } from "./atomic-file.js";
import { McpvmError } from "./errors.js";
import { withFileLock } from "./file-lock.js";
import { JsonDocumentError, parseJsonDocument, reservedKeyPath } from "./json-document.js";
import { readFailure, readOwnFile, StateFileTooLargeError, tooLargeFix } from "./own-file.js";
import { InvalidUtf8Error } from "./utf8.js";
import { describeZodIssues, formatJsonPath } from "./zod-issues.js";

export type JsonStoreErrorCode = "STORE_CORRUPT" | "STORE_INSECURE" | "STORE_INVALID" | "STORE_TOO_LARGE" | "STORE_UNREADABLE";

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
    /** The most of it that is read (src/util/state-file-limits.ts): a larger file is refused from its size, unread. */
    private readonly maxBytes: number,
    /**
     * Where older versions wrote such keys themselves, so a file is not refused for them (they are
     * dropped there, as before); everywhere else a reserved key is refused.
     */
    private readonly legacyReservedKeys?: (path: readonly (string | number)[]) => boolean,
  ) {}

  async read(): Promise<T> {
    // Opened without following links and checked on the open file: a planted link or a file
    // another account owns or can write is refused, never read.
    const read = await readOwnFile(this.file, this.maxBytes).catch((cause: unknown) => {
      if (cause instanceof StateFileTooLargeError) {
        throw new JsonStoreError("STORE_TOO_LARGE", `${cause.problem} It holds ${this.purpose}. ${tooLargeFix(this.file)}`, {
          data: { file: this.file, size: cause.size, maxBytes: cause.maxBytes },
          cause,
        });
      }
      if (cause instanceof InvalidUtf8Error) {
        throw new JsonStoreError("STORE_CORRUPT", `${this.file} is ${cause.message}. It holds ${this.purpose}; open it in an editor, fix that line and save it as UTF-8, or delete it (nothing was changed).`, {
          data: { file: this.file, byte: cause.byte, line: cause.line },
          cause,
        });
      }
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
    if (text.trim() === "") {
      // Cut to nothing (a crash or a full disk while another program wrote it: mcpvm's own writes are atomic).
      throw new JsonStoreError("STORE_CORRUPT", `${this.file} is empty. It holds ${this.purpose}; restore it from a backup, or delete it and let mcpvm write it again (what it held must then be redone).`, {
        data: { file: this.file },
      });
    }
    let raw: unknown;
    try {
      // A `__proto__`/`constructor`/`prototype` key is refused, not dropped: dropped, the entry it
      // holds would silently not exist, and the next update would write the file back without it.
      const legacy = this.legacyReservedKeys;
      raw = parseJsonDocument(text, { refuseReservedKeys: legacy === undefined ? true : (path) => !legacy(path) });
    } catch (cause) {
      const reserved = cause instanceof JsonDocumentError && cause.kind === "reserved-key" ? cause.problems[0] : undefined;
      if (reserved !== undefined) {
        const at = reserved.path === undefined ? "" : `${formatJsonPath(reserved.path)} `;
        throw new JsonStoreError(
          "STORE_CORRUPT",
          `${this.file} has a key mcpvm refuses: ${at}(line ${reserved.line}, column ${reserved.column}): ${reserved.message}. It holds ${this.purpose}; fix it in an editor (nothing was changed).`,
          { data: { file: this.file, path: reserved.path === undefined ? undefined : formatJsonPath(reserved.path) }, cause },
        );
      }
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
        // Written, such a key would make the file unreadable (read refuses it): refuse it here, unwritten.
        const reserved = reservedKeyPath(checked);
        if (reserved !== undefined) {
          throw new JsonStoreError(
            "STORE_INVALID",
            `${formatJsonPath(reserved)}: "${String(reserved.at(-1))}" cannot be stored in ${this.file} (mcpvm never reads __proto__, constructor or prototype keys); use another name. ${this.file} was not changed.`,
            { data: { file: this.file, path: formatJsonPath(reserved) } },
          );
        }
        await writeFileAtomic(this.file, `${JSON.stringify(checked, null, 2)}\n`, 0o600);
        return result;
      }),
    );
    this.queue = run;
    return run;
  }
}
