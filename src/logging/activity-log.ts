import { closeSync, constants, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeSync } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { linesBackward } from "../util/line-reader.js";

/**
 * <config home>/activity.jsonl: one line per MCP tool call that reached a server, written by every face
 * (CLI, REPL, gateway, dashboard) of every process, so `mcpvm ui`'s Activity page shows what an
 * agent just called wherever it ran. Arguments are masked by the caller's redactor and cut to a
 * bounded length before they get here; results are never written. Lines are appended with
 * O_APPEND (whole lines per write, so concurrent processes do not interleave), and the file is
 * rotated to activity.jsonl.1 (the one before to .2, …) past its size, keeping `keep` rotated
 * files (config.json `logs.activity`), so it cannot grow without bound.
 */
export const MAX_ACTIVITY_BYTES = 5 * 1024 * 1024;

/** The default: the live file and one rotated file of 5 MB each (some 20,000 calls). */
export const DEFAULT_ACTIVITY_ROTATION: ActivityRotation = { maxFileBytes: MAX_ACTIVITY_BYTES, keep: 1 };

export interface ActivityRotation {
  readonly maxFileBytes: number;
  readonly keep: number;
}
export const MAX_ARGS_CHARS = 2_000;

/** Built on its first parse (z.lazy): only reading the log (the dashboard's Activity page) needs it, not a plain run. */
export const activityRecordSchema = z.lazy(() =>
  z.object({
    at: z.string(),
    face: z.string(),
    /** The gateway client the call was made for (its token's name, or `<mapping>/<sub>` for an access token). */
    client: z.string().optional(),
    pid: z.number().int(),
    server: z.string(),
    tool: z.string(),
    durationMs: z.number(),
    outcome: z.enum(["ok", "isError", "failed"]),
    errorCode: z.string().optional(),
    /** JSON of the masked arguments, cut to MAX_ARGS_CHARS (then `truncated` is true). */
    args: z.string(),
    truncated: z.boolean().optional(),
  }),
);
export type ActivityRecord = z.infer<typeof activityRecordSchema>;

/** JSON text of masked arguments, bounded. */
export function argsText(maskedArgs: unknown): { args: string; truncated?: true } {
  let text: string;
  try {
    text = JSON.stringify(maskedArgs ?? {}) ?? "{}";
  } catch {
    text = '"(arguments could not be shown)"';
  }
  return text.length > MAX_ARGS_CHARS ? { args: `${text.slice(0, MAX_ARGS_CHARS)}…`, truncated: true } : { args: text };
}

export class ActivityLog {
  private failed = false;
  /** Lines appended and not yet written; a function is a record still to be built (appendLater). */
  private pending: Array<string | (() => ActivityRecord)> = [];
  /** The write scheduled FLUSH_DELAY_MS after the first pending line, if any. */
  private flushTimer: NodeJS.Timeout | undefined;
  private handle: OpenLog | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly warn: (message: string) => void = () => {},
    private readonly rotation: ActivityRotation = DEFAULT_ACTIVITY_ROTATION,
  ) {}

  /**
   * Never throws and never delays the call it records: a log that cannot be written is warned about
   * once. Lines are written together FLUSH_DELAY_MS after the first of them (one write for every
   * call in that time, however many: a busy gateway records thousands a second); close() writes
   * what is pending at once.
   */
  append(record: ActivityRecord): void {
    this.enqueue(`${JSON.stringify(record)}\n`);
  }

  /**
   * Like append, with the record built when the lines are written rather than now: a tool call's
   * masking and formatting then happen after its result has gone back to the caller, off the
   * call's own latency. `build` must capture at call time whatever could change by then (the time,
   * the face, the client). A build that throws writes nothing for that record.
   */
  appendLater(build: () => ActivityRecord): void {
    this.enqueue(build);
  }

  private enqueue(line: string | (() => ActivityRecord)): void {
    this.pending.push(line);
    if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => this.writeNow(), FLUSH_DELAY_MS);
      // A pending line never keeps a finished process alive: a process that exits before the timer
      // (process.exit after a command, or the loop running dry) writes its lines on the way out.
      this.flushTimer.unref();
      process.once("exit", this.writeOnExit);
    }
  }

  /** Writes every append so far now (tests, shutdown); resolves once they are on disk. */
  flush(): Promise<void> {
    this.writeNow();
    return Promise.resolve();
  }

  /** Writes what is pending now, then lets go of the file (shutdown). */
  close(): Promise<void> {
    this.writeNow();
    clearTimeout(this.idleTimer);
    this.closeHandle();
    return Promise.resolve();
  }

  /**
   * The newest records first, up to `limit`, read back from the end of the current file and then of
   * the rotated ones, only as far as `limit` takes: a large file (one from before rotation, or a
   * generous `maxFileBytes`) costs no more to show than a small one. Bad lines are skipped.
   */
  async recent(limit: number): Promise<ActivityRecord[]> {
    const out: ActivityRecord[] = [];
    for (const file of [this.file, ...(await rotatedFiles(this.file))]) {
      if (out.length >= limit) break;
      const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(() => undefined);
      if (handle === undefined) continue;
      try {
        const { size } = await handle.stat();
        for await (const line of linesBackward(handle, size)) {
          if (out.length >= limit) break;
          try {
            const parsed = activityRecordSchema.safeParse(JSON.parse(line));
            if (parsed.success) out.push(parsed.data);
          } catch {
            // a line cut by a crash mid-write
          }
        }
      } catch {
        // A file shrunk or replaced while read (another process rotated it): what was read is shown.
      } finally {
        await handle.close();
      }
    }
    return out;
  }

  private readonly writeOnExit = (): void => this.writeNow();

  private writeNow(): void {
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      process.off("exit", this.writeOnExit);
    }
    this.writePending();
  }

  private writePending(): void {
    for (let i = 0; i < this.pending.length; i++) {
      const entry = this.pending[i];
      if (entry === undefined || typeof entry === "string") continue;
      try {
        this.pending[i] = `${JSON.stringify(entry())}\n`;
      } catch {
        this.pending[i] = "";
      }
    }
    this.pending = this.pending.filter((line) => line !== "");
    while (this.pending.length > 0) {
      // At most MAX_BATCH_CHARS per write (at least one line), so a burst cannot overshoot the rotation cap.
      let taken = 0;
      let chars = 0;
      while (taken < this.pending.length && (taken === 0 || chars + (this.pending[taken] as string).length <= MAX_BATCH_CHARS)) chars += (this.pending[taken++] as string).length;
      this.write(this.pending.splice(0, taken).join(""));
    }
    // The file is let go of once appends stop for a while (no descriptor held by an idle process).
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.closeHandle(), REOPEN_MS);
    this.idleTimer.unref();
  }

  /**
   * Whole lines in one O_APPEND write, so concurrent processes never interleave within a line. The
   * write is synchronous, like the log file's (pino): appending a few hundred bytes to a local file
   * takes microseconds, while an asynchronous write hands every line to the thread pool and wakes a
   * thread for it, which under load cost more than the rest of the gateway's own work per call. The
   * file stays open while appends keep coming and is opened again (its size read, rotated when over
   * the cap) at least every REOPEN_MS: another process's rotation or a removed file is noticed
   * within that time, and the cap is exceeded by at most what all writers append in it.
   */
  private write(text: string): void {
    const bytes = Buffer.byteLength(text);
    try {
      if (this.handle !== undefined && (Date.now() - this.handle.openedAt > REOPEN_MS || this.handle.size + bytes > this.rotation.maxFileBytes)) this.closeHandle();
      this.handle ??= this.openHandle(bytes);
      writeSync(this.handle.fd, text);
      this.handle.size += bytes;
    } catch (error) {
      if (!this.failed) this.warn(`cannot write the activity log ${this.file}: ${(error as Error).message}`);
      this.failed = true;
      this.closeHandle();
    }
  }

  private openHandle(incoming: number): OpenLog {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    let size = sizeOf(this.file);
    if (size + incoming > this.rotation.maxFileBytes) size = rotateOnce(this.file, this.rotation, incoming, size);
    const fd = openSync(this.file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0), 0o600);
    return { fd, size, openedAt: Date.now() };
  }

  private closeHandle(): void {
    const handle = this.handle;
    this.handle = undefined;
    if (handle === undefined) return;
    try {
      closeSync(handle.fd);
    } catch {
      // already closed
    }
  }
}

/** How long appended lines wait to be written with the ones that follow (the Activity page polls every few seconds). */
export const FLUSH_DELAY_MS = 50;

/** The most characters one write carries (a burst is written in several). */
const MAX_BATCH_CHARS = 64 * 1024;

/** How long an open activity log is written to before it is opened (and its size checked) again. */
const REOPEN_MS = 1_000;

interface OpenLog {
  readonly fd: number;
  /** The file's size as this process knows it (its own appends since the open added). */
  size: number;
  readonly openedAt: number;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** activity.jsonl.1, .2, … present beside the file, newest first. */
async function rotatedFiles(file: string): Promise<string[]> {
  return rotatedIndexes(file, await readdir(dirname(file)).catch(() => [] as string[])).map((index) => join(dirname(file), `${basename(file)}.${index}`));
}

function rotatedFilesSync(file: string): number[] {
  let names: string[] = [];
  try {
    names = readdirSync(dirname(file));
  } catch {
    // no folder: nothing rotated
  }
  return rotatedIndexes(file, names);
}

function rotatedIndexes(file: string, names: readonly string[]): number[] {
  const prefix = `${basename(file)}.`;
  return names
    .filter((name) => name.startsWith(prefix) && /^[1-9]\d{0,5}$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/** A rotation lock older than this was left by a process that died mid-rotation (a rotation takes milliseconds). */
const STALE_ROTATION_MS = 10_000;

/**
 * Moves the file to .1 (each older one up by one, those past `keep` deleted) and returns the size
 * now to be written after (0). Writers take no lock to append (the write is synchronous, in the
 * call's path), so two that find the file full at once must not both shift the numbers (the second
 * would push the first's .1 past `keep`): the rotation is made under a lock folder taken with
 * mkdir, which is atomic; a writer that finds it taken, or finds the file already rotated once it
 * holds it, appends to what is there.
 */
function rotateOnce(file: string, { keep, maxFileBytes }: ActivityRotation, incoming: number, size: number): number {
  const lock = `${file}.rotating`;
  try {
    mkdirSync(lock, { mode: 0o700 });
  } catch {
    try {
      if (Date.now() - statSync(lock).mtimeMs < STALE_ROTATION_MS) return size;
      rmdirSync(lock);
      mkdirSync(lock, { mode: 0o700 });
    } catch {
      return size;
    }
  }
  try {
    // Another writer may have rotated it between our stat and our lock.
    const now = sizeOf(file);
    if (now + incoming <= maxFileBytes) return now;
    const indexes = rotatedFilesSync(file);
    for (let i = indexes.length - 1; i >= 0; i--) {
      const index = indexes[i] as number;
      if (index >= keep) rmSync(`${file}.${index}`, { force: true });
      else renameSync(`${file}.${index}`, `${file}.${index + 1}`);
    }
    renameSync(file, `${file}.1`);
    return 0;
  } catch {
    return size;
  } finally {
    try {
      rmdirSync(lock);
    } catch {
      // taken over as stale by another writer: nothing of ours to remove
    }
  }
}
