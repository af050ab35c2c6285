import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { currentClient } from "../logging/caller.js";
import type { Redactor } from "../logging/redact.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import { withFileLock } from "../util/file-lock.js";
import { entryHash, type ChainVerdict } from "./chain.js";
import { auditEntrySchema, GENESIS_HASH, type AuditEntry, type AuditEvent, type AuditFace, type AuditHead } from "./entry.js";
import { AuditLogError, insecure, unreadable, unwritable } from "./errors.js";
import { readHead, tailLog, verifyLog, type Tail, type TailQuery } from "./reader.js";
import { rotate, type LogRotation } from "./segments.js";

export { AuditLogError } from "./errors.js";

/** How much of the log's end is read to find the entry to chain to (entries are a few hundred bytes). */
const TAIL_BYTES = 64 * 1024;
/** A detail string longer than this is cut: the log records decisions, not payloads. */
const MAX_DETAIL_TEXT = 500;

export interface AuditLogOptions {
  readonly file: string;
  /** Beside the log: the last entry's seq and hash, so a log cut short at its end is noticed. */
  readonly headFile: string;
  readonly user: string;
  readonly face: AuditFace;
  /** Every string of an entry passes it: secrets never enter the log. */
  readonly redactor?: Redactor;
  readonly clock?: () => Date;
  /** When the live file is rotated and how many rotated segments are kept (config.json `logs.audit`); unset, it is never rotated. */
  readonly rotation?: LogRotation;
  /**
   * Where an event goes when the config home is on a read-only file system (EROFS: a gateway whose
   * home is mounted read-only in a container or pod, by design). Unset, such a write fails like any
   * other. The gateway passes its structured log, which the platform collects.
   */
  readonly whenReadOnly?: (entry: ReadOnlyAuditEntry) => void;
  /**
   * Told of every event that could not be recorded (other than to `whenReadOnly`), before the
   * refusal is thrown. The gateway logs it: its caller is a remote client, so without this the
   * person running it saw calls fail and never why (a full disk refuses every audited call).
   */
  readonly whenUnwritable?: (error: Error) => void;
}

/** An event that could not be appended to a read-only home: cleaned (redacted, shortened) like an entry, without a chain. */
export type ReadOnlyAuditEntry = AuditEvent & { readonly time: string; readonly user: string; readonly face: AuditFace };

/** Where events are recorded; the service and the faces take this, not the file. */
export interface AuditSink {
  record(event: AuditEvent): Promise<void>;
}

/**
 * audit-log.jsonl in the config home: append-only, one JSON entry a line, each holding the SHA-256
 * of the one before it. Appends hold the file's cross-process lock and read the last entry inside
 * it, so concurrent processes extend one chain and never fork it. An entry is fsynced before the
 * head file is replaced.
 */
export class AuditLog implements AuditSink {
  constructor(
    private readonly options: AuditLogOptions,
    /** Appends not yet on disk, shared by every face of one log (see `as`). */
    private readonly inFlight = new Set<Promise<unknown>>(),
  ) {}

  get file(): string {
    return this.options.file;
  }

  /** The same log, recording as another face (the REPL's host also serves `/mcp` commands). */
  as(face: AuditFace): AuditLog {
    return new AuditLog({ ...this.options, face }, this.inFlight);
  }

  /**
   * Resolves once every append started so far is on disk (or failed). A host closes after this:
   * a call cancelled mid-confirmation still records its decision after the face has moved on, and
   * the process must not exit with that entry half-written and its lock left behind.
   */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async record(recorded: AuditEvent): Promise<void> {
    // Through the gateway: the client (token name, or `<entry>/<sub>`) whose call this is, so a team's audit says who asked.
    const client = currentClient();
    const event = client === undefined ? recorded : { ...recorded, details: { ...recorded.details, client } };
    try {
      await this.append(event);
    } catch (error) {
      const whenReadOnly = this.options.whenReadOnly;
      if (whenReadOnly === undefined || !onReadOnlyFileSystem(error)) {
        this.options.whenUnwritable?.(error as Error);
        throw error;
      }
      const time = (this.options.clock ?? (() => new Date()))().toISOString();
      whenReadOnly({ ...this.clean(event), time, user: this.options.user, face: this.options.face });
    }
  }

  append(event: AuditEvent): Promise<AuditEntry> {
    const appending = this.appendNow(event);
    this.inFlight.add(appending);
    const forget = () => void this.inFlight.delete(appending);
    appending.then(forget, forget);
    return appending;
  }

  private async appendNow(event: AuditEvent): Promise<AuditEntry> {
    const clean = this.clean(event);
    return withFileLock(this.options.file, async () => {
      const last = await this.lastEntry();
      // A line cut short by a crash mid-write has no newline: the entry starts a line of its own.
      const body: Omit<AuditEntry, "hash"> = {
        seq: last.seq + 1,
        time: (this.options.clock ?? (() => new Date()))().toISOString(),
        user: this.options.user,
        face: this.options.face,
        event: clean.event,
        subject: clean.subject,
        decision: clean.decision,
        ...(clean.details === undefined ? {} : { details: { ...clean.details } }),
        prev: last.hash,
      };
      const entry: AuditEntry = { ...body, hash: entryHash(body) };
      const head: AuditHead = { version: 1, seq: entry.seq, hash: entry.hash };
      let { size, torn } = last;
      const line = `${JSON.stringify(entry)}\n`;
      const rotation = this.options.rotation;
      if (rotation !== undefined && size > 0 && size + Buffer.byteLength(line) + 1 > rotation.maxFileBytes) {
        // Inside the lock, after the last entry was read: the new file's first entry chains to the old file's last.
        await rotate(this.options.file, rotation.keep).catch((error: unknown) => {
          throw unwritable(this.options.file, error);
        });
        size = 0;
        torn = false;
      }
      try {
        await this.appendLine(`${torn ? "\n" : ""}${line}`);
        await writeFileAtomic(this.options.headFile, `${JSON.stringify(head)}\n`);
      } catch (error) {
        // A full disk fails the head after the entry (or the entry halfway). Left there, each such
        // entry records a decision whose action never ran, and head and log drift apart until
        // `audit verify` reports tampering. Cutting the log back to where it was keeps both as
        // they were: the event is refused as a whole, and the next append starts clean.
        await cutBack(this.options.file, size);
        throw error instanceof AuditLogError ? error : unwritable(this.options.file, error);
      }
      return entry;
    });
  }

  /**
   * The newest entries that match, oldest first, reading back from the end of the log through its
   * rotated segments only as far as they take (reader.ts): memory and time follow `limit`, not the log's size.
   */
  tail(query: TailQuery): Promise<Tail> {
    return tailLog(this.options.file, query);
  }

  /** Every entry of every kept segment (tests and small logs: `tail` is what a face shows). */
  async read(): Promise<{ readonly entries: readonly AuditEntry[]; readonly unreadable: number }> {
    const { entries, unreadable: count } = await this.tail({ limit: Number.POSITIVE_INFINITY });
    return { entries, unreadable: count };
  }

  /** Checks the chain through every kept segment (reader.ts: streamed, and safe beside live writers). */
  verify(): Promise<ChainVerdict> {
    return verifyLog(this.options.file, this.options.headFile);
  }

  /** The entry to chain to: the log's last line; the head file when that line cannot be read. `torn`: the file does not end a line. */
  private async lastEntry(): Promise<{ seq: number; hash: string; torn: boolean; size: number }> {
    let handle;
    try {
      handle = await open(this.options.file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw unreadable(this.options.file, error);
      // No live file: a new log, or one whose file was just rotated away (a crash between the rename
      // and the first append): the head then names the entry to chain to. A head
      // that cannot be read is no reason to refuse a first entry: writing the head says what is wrong with it.
      const head = await readHead(this.options.headFile).catch(() => undefined);
      return head === undefined || head.seq < 0 ? { seq: 0, hash: GENESIS_HASH, torn: false, size: 0 } : { seq: head.seq, hash: head.hash, torn: false, size: 0 };
    }
    let torn = false;
    let size = 0;
    try {
      const info = await handle.stat();
      // A folder in the log's place opens but cannot be read or appended to.
      if (!info.isFile()) throw insecure(this.options.file, "is not a regular file", `mv ${this.options.file} ${this.options.file}.broken   # then let mcpvm start a new log`);
      size = info.size;
      const start = Math.max(0, size - TAIL_BYTES);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      torn = size > 0 && buffer.at(-1) !== 0x0a;
      const lines = buffer.toString("utf8").split("\n").filter((l) => l.trim() !== "");
      const last = lines.at(-1);
      const parsed = last === undefined || torn ? undefined : auditEntrySchema.safeParse(safeJson(last));
      if (parsed?.success === true) return { seq: parsed.data.seq, hash: parsed.data.hash, torn, size };
    } finally {
      await handle.close();
    }
    const head = await readHead(this.options.headFile);
    return head === undefined || head.seq < 0 ? { seq: 0, hash: GENESIS_HASH, torn, size } : { seq: head.seq, hash: head.hash, torn, size };
  }

  private async appendLine(line: string): Promise<void> {
    let handle;
    try {
      handle = await open(this.options.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    } catch (error) {
      throw unwritable(this.options.file, error);
    }
    try {
      // One write(2) may take only part of the line when the disk fills: write the rest, so the
      // error that follows is thrown rather than a torn entry left silently.
      const bytes = Buffer.from(line, "utf8");
      for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  private clean(event: AuditEvent): AuditEvent {
    const redact = (text: string) => (this.options.redactor === undefined ? text : this.options.redactor.redact(text));
    const details = event.details === undefined ? undefined : (shorten(this.options.redactor?.redactValue(event.details) ?? event.details) as Record<string, unknown>);
    return { event: event.event, subject: redact(event.subject), decision: redact(event.decision), ...(details === undefined ? {} : { details }) };
  }
}

function shorten(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_DETAIL_TEXT ? `${value.slice(0, MAX_DETAIL_TEXT)}… (${value.length} characters)` : value;
  if (Array.isArray(value)) return value.slice(0, 50).map(shorten);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  return value;
}

/** EROFS anywhere in the error's cause chain (the lock file, the log or its head: whichever was written first). */
function onReadOnlyFileSystem(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if ((current as NodeJS.ErrnoException).code === "EROFS") return true;
  }
  return false;
}

/** Cuts the log back to `size` bytes, through a descriptor that does not follow a link put in its place. */
async function cutBack(file: string, size: number): Promise<void> {
  const handle = await open(file, constants.O_WRONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.truncate(size);
  } catch {
    // Nothing more to do: the append's own error is what the caller is told.
  } finally {
    await handle.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
