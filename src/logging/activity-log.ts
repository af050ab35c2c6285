import { constants } from "node:fs";
import { mkdir, open, readFile, rename, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";

/**
 * <config home>/activity.jsonl: one line per MCP tool call that reached a server, written by every face
 * (CLI, REPL, gateway, dashboard) of every process, so `mcpvm ui`'s Activity page shows what an
 * agent just called wherever it ran. Arguments are masked by the caller's redactor and cut to a
 * bounded length before they get here; results are never written. Lines are appended with
 * O_APPEND (whole lines in one write, so concurrent processes do not interleave), and the file is
 * rotated to activity.jsonl.1 past MAX_BYTES so it cannot grow without bound.
 *
 * Writing is off the calls' path and coalesced: the lines of calls made within FLUSH_DELAY_MS (or
 * while a write is under way) go out in one open/write/close, so a loop of a thousand calls costs a
 * few dozen writes, not a thousand. A page polling the file still sees a call well within a second.
 */
export const MAX_ACTIVITY_BYTES = 5 * 1024 * 1024;
export const MAX_ARGS_CHARS = 2_000;
/** How long a line may wait for others to share its write. */
export const FLUSH_DELAY_MS = 50;

export const activityRecordSchema = z.object({
  at: z.string(),
  face: z.string(),
  pid: z.number().int(),
  server: z.string(),
  tool: z.string(),
  durationMs: z.number(),
  outcome: z.enum(["ok", "isError", "failed"]),
  errorCode: z.string().optional(),
  /** JSON of the masked arguments, cut to MAX_ARGS_CHARS (then `truncated` is true). */
  args: z.string(),
  truncated: z.boolean().optional(),
});
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
  private folderMade = false;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /** Never throws and never delays the call it records: a log that cannot be written is warned about once. */
  append(record: ActivityRecord): void {
    this.pending.push(`${JSON.stringify(record)}\n`);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.writePending(), FLUSH_DELAY_MS);
    // A pending line never keeps a finished process alive; close() flushes (McpvmHost.close does).
    this.timer.unref();
  }

  /** Resolves when every append so far is on disk (tests, shutdown). */
  flush(): Promise<void> {
    return this.writePending();
  }

  /** Writes the lines collected so far, after any write already under way. */
  private writePending(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return this.chain;
    const text = this.pending.join("");
    this.pending = [];
    this.chain = this.chain.then(() => this.write(text));
    return this.chain;
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

  private async write(lines: string): Promise<void> {
    try {
      if (!this.folderMade) await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      this.folderMade = true;
      const size = await stat(this.file).then((s) => s.size, () => 0);
      if (size + lines.length > MAX_ACTIVITY_BYTES) await rename(this.file, `${this.file}.1`).catch(() => undefined);
      const handle = await open(this.file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0), 0o600);
      try {
        await handle.write(lines);
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (!this.failed) this.warn(`cannot write the activity log ${this.file}: ${(error as Error).message}`);
      this.failed = true;
    }
  }
}

async function linesOf(file: string): Promise<string[]> {
  try {
    return (await readFile(file, "utf8")).split("\n").filter((line) => line.length > 0);
  } catch {
    return [];
  }
}
