import { closeSync, constants, mkdirSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";

/**
 * <config home>/activity.jsonl: one line per MCP tool call that reached a server, written by every face
 * (CLI, REPL, gateway, dashboard) of every process, so `mcpvm ui`'s Activity page shows what an
 * agent just called wherever it ran. Arguments are masked by the caller's redactor and cut to a
 * bounded length before they get here; results are never written. Lines are appended with
 * O_APPEND (whole lines per write, so concurrent processes do not interleave), and the file is
 * rotated to activity.jsonl.1 past MAX_BYTES so it cannot grow without bound.
 */
export const MAX_ACTIVITY_BYTES = 5 * 1024 * 1024;
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

  /** The newest records first, up to `limit`, across the current and the rotated file; bad lines are skipped. */
  async recent(limit: number): Promise<ActivityRecord[]> {
    const lines = [...(await linesOf(`${this.file}.1`)), ...(await linesOf(this.file))];
    const out: ActivityRecord[] = [];
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      try {
        const parsed = activityRecordSchema.safeParse(JSON.parse(lines[i] as string));
        if (parsed.success) out.push(parsed.data);
      } catch {
        // a line cut by a crash mid-write
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
      if (this.handle !== undefined && (Date.now() - this.handle.openedAt > REOPEN_MS || this.handle.size + bytes > MAX_ACTIVITY_BYTES)) this.closeHandle();
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
    let size = 0;
    try {
      size = statSync(this.file).size;
    } catch {
      // not there yet
    }
    if (size + incoming > MAX_ACTIVITY_BYTES) {
      try {
        renameSync(this.file, `${this.file}.1`);
      } catch {
        // another process rotated it first
      }
      size = 0;
    }
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

async function linesOf(file: string): Promise<string[]> {
  try {
    return (await readFile(file, "utf8")).split("\n").filter((line) => line.length > 0);
  } catch {
    return [];
  }
}
