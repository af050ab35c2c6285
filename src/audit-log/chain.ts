import { createHash } from "node:crypto";
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

export type ChainVerdict =
  | { readonly ok: true; readonly entries: number; readonly head: { readonly seq: number; readonly hash: string } }
  | {
      readonly ok: false;
      /** 1-based line in the file; for a removed tail, the line after the last one. */
      readonly line: number;
      /** The seq the broken entry carries (or should carry). */
      readonly seq: number;
      readonly problem: ChainBreak;
      readonly message: string;
      /** Entries before the break, which still verify. */
      readonly intact: number;
    };

/**
 * Checks a log's lines against each other and against the head record: every entry's hash covers
 * its own fields, its `prev` is the previous entry's hash, seq counts up by one, and the last entry
 * is the one the head names. Names the first entry that breaks any of these.
 */
export function verifyChain(lines: readonly string[], head: AuditHead | undefined): ChainVerdict {
  let prev = GENESIS_HASH;
  /** The hash of the entry before the last: a head one entry behind may name it (below). */
  let beforeLast = GENESIS_HASH;
  let seq = 0;
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text.trim() === "" && i === lines.length - 1) break;
    const line = i + 1;
    const expectedSeq = seq + 1;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return broken(line, expectedSeq, "not-json", `line ${line} is not JSON: the entry was cut or edited by hand`, count);
    }
    const parsed = auditEntrySchema.safeParse(raw);
    if (!parsed.success) return broken(line, expectedSeq, "bad-shape", `line ${line} is not an audit entry (${parsed.error.issues[0]?.message ?? "wrong fields"})`, count);
    const entry = parsed.data;
    if (entryHash(entry) !== entry.hash) {
      return broken(line, entry.seq, "hash-mismatch", `entry ${entry.seq} (line ${line}) does not match its own hash: it was edited after it was written`, count);
    }
    if (entry.seq !== expectedSeq) {
      return broken(line, entry.seq, "seq-gap", `entry ${entry.seq} (line ${line}) follows entry ${seq}: ${entry.seq > expectedSeq ? "entries were removed before it" : "entries were reordered or repeated"}`, count);
    }
    if (entry.prev !== prev) {
      return broken(line, entry.seq, "prev-mismatch", `entry ${entry.seq} (line ${line}) does not chain to the entry before it: entries were removed, inserted or reordered`, count);
    }
    beforeLast = prev;
    prev = entry.hash;
    seq = entry.seq;
    count++;
  }
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
    return broken(count + 1, Math.min(head.seq, seq + 1), "head-mismatch", message, count);
  }
  if (head === undefined && count > 0 && !settling) {
    return broken(count + 1, seq, "head-mismatch", `the log has ${count} entries but its head file is missing: it was deleted, or the log was copied in from elsewhere`, count);
  }
  return { ok: true, entries: count, head: { seq, hash: prev } };
}

function broken(line: number, seq: number, problem: ChainBreak, message: string, intact: number): ChainVerdict {
  return { ok: false, line, seq, problem, message, intact };
}
