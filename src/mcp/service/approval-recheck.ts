import { statSync } from "node:fs";

/** Identity and change stamps of a file, or undefined when it cannot be stat'ed. */
export type FileStamper = (file: string) => FileStamp | undefined;

export interface FileStamp {
  /** Inode, size, mtime, ctime and mode together: equal keys mean the file was not replaced, written or chmod'ed. */
  readonly key: string;
  /** Last modification, in ms since the epoch. */
  readonly modifiedMs: number;
}

/**
 * Synchronous on purpose: a stat of a small local file takes microseconds, while an async stat
 * plus read costs a thread-pool round trip on every tool call, which is what this cache removes.
 * An atomic replace (writeFileAtomic renames) changes the inode, an in-place write the size or
 * mtime, a chmod the ctime and mode. Times as float milliseconds (sub-microsecond steps at today's
 * dates), not bigint nanoseconds: the bigint stat costs a third more on every tool call, and file
 * times move in clock ticks far coarser than either (RACY_WINDOW_MS covers writes within one).
 */
export const statFileStamp: FileStamper = (file) => {
  try {
    const info = statSync(file, { throwIfNoEntry: false });
    if (info === undefined) return undefined;
    return { key: `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.mode}`, modifiedMs: Math.floor(info.mtimeMs) };
  } catch {
    return undefined;
  }
};

/**
 * File timestamps tick coarsely (a jiffy on Linux), so a same-size in-place write within the tick
 * of the last one could leave every stamp equal. A file modified this recently is never trusted
 * from the cache (git's "racily clean" rule), so such a write is still seen on the next call.
 */
export const RACY_WINDOW_MS = 2_000;

export interface ApprovalRecheckOptions<E> {
  /** The approvals file whose stamp decides whether a previous pass still holds. */
  readonly file: string;
  /** The full check (read the file, compare the launch-definition hash); throws when not approved. */
  readonly check: (name: string, entry: E) => Promise<void>;
  readonly stamp?: FileStamper;
  /** Wall clock, compared with file modification times. */
  readonly now?: () => number;
}

/**
 * The per-call approval re-check without re-reading the approvals file on every call: a server
 * that passed the full check is passed again only while the file's stamp is exactly the one seen
 * before that check and its configured entry is the same object. Any write to the file (a revoke
 * from another process included), a chmod, or a file that cannot be stat'ed means the full check
 * runs again, so a revoke still takes effect on the very next call.
 */
export class ApprovalRecheck<E extends object> {
  private readonly passed = new Map<string, { readonly key: string; readonly entry: E }>();
  private readonly stamp: FileStamper;
  private readonly now: () => number;

  constructor(private readonly options: ApprovalRecheckOptions<E>) {
    this.stamp = options.stamp ?? statFileStamp;
    this.now = options.now ?? Date.now;
  }

  /**
   * Whether `name` with this very entry passed the full check against the file's current stamp (one
   * stat, no read): the synchronous first half of `require`. False means `require` must run.
   */
  passes(name: string, entry: E): boolean {
    return this.passedAt(name, entry, this.stamp(this.options.file));
  }

  async require(name: string, entry: E): Promise<void> {
    // Stamped before the check reads the file: a write racing with the read changes the stamp, so
    // the worst case is one extra full check, never a stale pass.
    const stamp = this.stamp(this.options.file);
    if (this.passedAt(name, entry, stamp)) return;
    this.passed.delete(name);
    await this.options.check(name, entry);
    if (stamp !== undefined && this.now() - stamp.modifiedMs > RACY_WINDOW_MS) this.passed.set(name, { key: stamp.key, entry });
  }

  /** Whether `name` with this very entry passed the full check when the file had this stamp. */
  private passedAt(name: string, entry: E, stamp: FileStamp | undefined): boolean {
    const known = this.passed.get(name);
    return stamp !== undefined && known !== undefined && known.key === stamp.key && known.entry === entry;
  }

  /** Drops every remembered pass (after this process itself changed approvals). */
  forget(): void {
    this.passed.clear();
  }
}
