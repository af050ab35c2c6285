import { createHash } from "node:crypto";
import { basename } from "node:path";
import { auditEntrySchema, GENESIS_HASH, type AuditEntry, type AuditHead } from "./entry.js";

/** JSON with keys sorted at every depth: the same entry always hashes the same, however it was written. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The hash an entry must carry: SHA-256 over everything but the hash itself (prev included, which chains it). */
export function entryHash(entry: Omit<AuditEntry, "hash">): string {
  const { hash: _ignored, ...rest } = entry as AuditEntry;
  return createHash("sha256").update(canonicalJson(rest)).digest("hex");
}

export type ChainBreak =
  | "not-json"
  | "bad-shape"
  | "hash-mismatch"
  | "prev-mismatch"
  | "seq-gap"
  | "head-mismatch";

/** Where the check began when the chain's start is gone: the oldest kept segment starts mid-chain (older segments were rotated out). */
export interface ChainStart {
  readonly seq: number;
  readonly file: string;
  readonly line: number;
}

export type ChainVerdict =
  | {
      readonly ok: true;
      readonly entries: number;
      readonly head: { readonly seq: number; readonly hash: string };
      /** Set when the entries before `seq` are no longer kept: the chain was checked from there on. */
      readonly from?: ChainStart;
      /** The segments read, oldest first. */
      readonly files?: readonly string[];
    }
  | {
      readonly ok: false;
      /** The segment the broken entry is in (for a removed tail, the newest one). */
      readonly file?: string;
      /** 1-based line in that file; for a removed tail, the line after the last one. */
      readonly line: number;
      /** The seq the broken entry carries (or should carry). */
      readonly seq: number;
      readonly problem: ChainBreak;
      readonly message: string;
      /** Entries before the break, which still verify. */
      readonly intact: number;
      readonly from?: ChainStart;
    };

/**
 * Checks a log's lines one at a time, across every kept segment (oldest first), against each other
 * and then against the head record: every entry's hash covers its own fields, its `prev` is the
 * previous entry's hash, seq counts up by one, and the last entry is the one the head names. Holds
 * only the last two hashes, so a log of any size is checked in constant memory. The first entry of
 * the oldest segment may start mid-chain when `startMayBeGone` (older segments were rotated out):
 * the check then starts there and says so (`from`), since what is no longer kept cannot be checked.
 */
export class ChainChecker {
  private prev = GENESIS_HASH;
  /** The hash of the entry before the last: a head one entry behind may name it (below). */
  private beforeLast = GENESIS_HASH;
  private seq = 0;
  private count = 0;
  private file: string | undefined;
  private line = 0;
  private start: ChainStart | undefined;
  private broken: ChainVerdict | undefined;
  private startMayBeGone = false;

  /** The next segment's lines follow; `startMayBeGone` only for the oldest one, when it is a rotated segment. */
  beginFile(file: string, startMayBeGone = false): void {
    this.file = file;
    this.line = 0;
    this.startMayBeGone = startMayBeGone && this.count === 0;
  }

  /** Feeds one line (without its newline); false once the chain is broken (the rest need not be read). */
  push(text: string): boolean {
    if (this.broken !== undefined) return false;
    this.line++;
    const line = this.line;
    const where = this.file === undefined ? `line ${line}` : `${basename(this.file)} line ${line}`;
    const expectedSeq = this.seq + 1;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.fail(line, expectedSeq, "not-json", `${where} is not JSON: the entry was cut or edited by hand`);
    }
    const parsed = auditEntrySchema.safeParse(raw);
    if (!parsed.success) return this.fail(line, expectedSeq, "bad-shape", `${where} is not an audit entry (${parsed.error.issues[0]?.message ?? "wrong fields"})`);
    const entry = parsed.data;
    if (entryHash(entry) !== entry.hash) {
      return this.fail(line, entry.seq, "hash-mismatch", `entry ${entry.seq} (${where}) does not match its own hash: it was edited after it was written`);
    }
    if (this.count === 0 && this.startMayBeGone && entry.seq > 1) {
      // The entries before it went with a rotated-out segment: they are gone, not tampered with.
      this.start = { seq: entry.seq, file: this.file ?? "", line };
      this.seq = entry.seq - 1;
      this.prev = entry.prev;
    } else if (entry.seq !== expectedSeq) {
      return this.fail(line, entry.seq, "seq-gap", `entry ${entry.seq} (${where}) follows entry ${this.seq}: ${entry.seq > expectedSeq ? "entries were removed before it" : "entries were reordered or repeated"}`);
    } else if (entry.prev !== this.prev) {
      return this.fail(line, entry.seq, "prev-mismatch", `entry ${entry.seq} (${where}) does not chain to the entry before it: entries were removed, inserted or reordered`);
    }
    this.beforeLast = this.prev;
    this.prev = entry.hash;
    this.seq = entry.seq;
    this.count++;
    return true;
  }

  /** The verdict once every line was pushed, judged against the head file. */
  finish(head: AuditHead | undefined, files?: readonly string[]): ChainVerdict {
    if (this.broken !== undefined) return this.broken;
    const { seq, prev, count, beforeLast } = this;
    const line = this.line + 1;
    // An append fsyncs its entry, then moves the head: a writer killed between the two leaves the head
    // on the entry before the last, which the next append settles. That is no tampering; a head further
    // behind, or naming another entry, is (it is what cutting the end off and rewriting the head gives).
    // The first append creates the head file: before it has, a log of one entry has none (no head is entry 0).
    const settling = count > 0 && (head?.seq ?? 0) === seq - 1 && (head?.hash ?? GENESIS_HASH) === beforeLast;
    if (head !== undefined && !settling && (head.seq !== seq || head.hash !== prev)) {
      const message =
        head.seq > seq
          ? `the log ends at entry ${seq} but its head file records entry ${head.seq}: entries were removed from the end`
          : `the log's last entry (${seq}) is not the one its head file records (${head.seq}): the log or the head file was replaced`;
      return this.failed(line, Math.min(head.seq, seq + 1), "head-mismatch", message);
    }
    if (head === undefined && count > 0 && !settling) {
      return this.failed(line, seq, "head-mismatch", `the log has ${count} entries but its head file is missing: it was deleted, or the log was copied in from elsewhere`);
    }
    return { ok: true, entries: count, head: { seq, hash: prev }, ...(this.start === undefined ? {} : { from: this.start }), ...(files === undefined ? {} : { files }) };
  }

  private fail(line: number, seq: number, problem: ChainBreak, message: string): false {
    this.failed(line, seq, problem, message);
    return false;
  }

  private failed(line: number, seq: number, problem: ChainBreak, message: string): ChainVerdict {
    this.broken = {
      ok: false,
      ...(this.file === undefined ? {} : { file: this.file }),
      line,
      seq,
      problem,
      message,
      intact: this.count,
      ...(this.start === undefined ? {} : { from: this.start }),
    };
    return this.broken;
  }
}

/** The whole check over lines already in memory (one file, its start present). */
export function verifyChain(lines: readonly string[], head: AuditHead | undefined): ChainVerdict {
  const checker = new ChainChecker();
  for (let i = 0; i < lines.length; i++) {
    // The text after the last newline: empty for a file that ends a line.
    if (i === lines.length - 1 && (lines[i] as string).trim() === "") break;
    if (!checker.push(lines[i] as string)) break;
  }
  return checker.finish(head);
}
