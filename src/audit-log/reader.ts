import { setTimeout as delay } from "node:timers/promises";
import { linesBackward, linesForward } from "../util/line-reader.js";
import { readOwnFile } from "../util/own-file.js";
import { STATE_FILE_LIMITS } from "../util/state-file-limits.js";
import { ChainChecker, type ChainVerdict } from "./chain.js";
import { auditEntrySchema, auditHeadSchema, GENESIS_HASH, type AuditEntry, type AuditHead } from "./entry.js";
import { AuditLogError, insecure, unreadable } from "./errors.js";
import { closeSegments, openSegments, type OpenSegment } from "./segments.js";

/** Reads of the log and its head a verify tries while writers keep moving the head (each is a few ms: nothing is read before it settles). */
const VERIFY_ATTEMPTS = 40;

/** What `audit log` asks for: the newest `limit` entries that match, older than `before` (a seq) and not older than `since`. */
export interface TailQuery {
  readonly limit: number;
  readonly before?: number;
  /** Epoch ms. Entries are appended in time order, so reading back stops at the first older one. */
  readonly since?: number;
  readonly match?: (entry: AuditEntry) => boolean;
}

export interface Tail {
  /** Oldest first. */
  readonly entries: readonly AuditEntry[];
  /** Lines that were read and are no audit entry. */
  readonly unreadable: number;
  /** Older entries that match are there beyond `limit`: the seq to page back from (`--before`). */
  readonly olderBefore?: number;
  readonly files: readonly string[];
}

export async function readHead(headFile: string): Promise<AuditHead | undefined> {
  const read = await readOwnFile(headFile, STATE_FILE_LIMITS.secretLine).catch((cause: unknown) => {
    throw unreadable(headFile, cause);
  });
  if (read === undefined) return undefined;
  if ("problem" in read) throw insecure(headFile, read.problem.problem, read.problem.fix);
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch {
    raw = undefined;
  }
  const parsed = auditHeadSchema.safeParse(raw);
  return parsed.success ? parsed.data : { version: 1, seq: -1, hash: GENESIS_HASH };
}

/** Every segment open, oldest first; retried while a rotation moves the names (see openSegments). */
async function openLog(file: string): Promise<readonly OpenSegment[]> {
  for (let attempt = 1; ; attempt++) {
    const opened = await openSegments(file).catch((cause: unknown) => {
      throw unreadable((cause as { path?: string }).path ?? file, cause);
    });
    if ("segments" in opened) return opened.segments;
    if ("problem" in opened) throw insecure(opened.problem.path, opened.problem.problem, opened.problem.fix);
    if (attempt === VERIFY_ATTEMPTS) throw unreadable(file, new Error("its segments kept being rotated while they were read"));
    await delay(attempt);
  }
}

/**
 * Checks the chain through every kept segment, streaming: memory stays at one line however long
 * the log. Writers append and move the head under a lock this does not take (a check must not stop
 * them), so the head is read before the segments are opened and after, and the check waits until
 * no writer moved it meanwhile and the newest segment ends a line; a head read before can only lag
 * the opened files by the entry being appended, which the chain accepts. The opened descriptors
 * are read only up to their size at opening: what is appended or rotated later is not mixed in.
 */
export async function verifyLog(file: string, headFile: string): Promise<ChainVerdict> {
  for (let attempt = 1; ; attempt++) {
    const before = await readHead(headFile);
    const segments = await openLog(file);
    try {
      const after = await readHead(headFile);
      const newest = segments.at(-1);
      const settled = before?.seq === after?.seq && before?.hash === after?.hash && (newest === undefined || (await endsALine(newest)));
      if (!settled && attempt < VERIFY_ATTEMPTS) {
        await delay(attempt);
        continue;
      }
      const checker = new ChainChecker();
      // Paths are named when the log has been rotated; a log that is one file keeps its messages as they were.
      const named = segments.length > 1 || segments[0]?.rotated === true;
      check: for (const [i, segment] of segments.entries()) {
        if (named) checker.beginFile(segment.path, i === 0 && segment.rotated);
        for await (const line of linesForward(segment.handle, segment.size)) if (!checker.push(line)) break check;
      }
      return checker.finish(before, segments.map((s) => s.path));
    } catch (cause) {
      throw cause instanceof AuditLogError ? cause : unreadable(file, cause);
    } finally {
      await closeSegments({ segments });
    }
  }
}

async function endsALine(segment: OpenSegment): Promise<boolean> {
  if (segment.size === 0) return true;
  const last = Buffer.alloc(1);
  await segment.handle.read(last, 0, 1, segment.size - 1);
  return last[0] === 0x0a;
}

/** The newest entries that match, read back from the end of the newest segment: only as much of the log as they take is read. */
export async function tailLog(file: string, query: TailQuery): Promise<Tail> {
  const segments = await openLog(file);
  const newestFirst: AuditEntry[] = [];
  let unreadableLines = 0;
  let olderBefore: number | undefined;
  try {
    read: for (const segment of [...segments].reverse()) {
      for await (const line of linesBackward(segment.handle, segment.size)) {
        if (line.trim() === "") continue;
        let entry: AuditEntry;
        try {
          entry = auditEntrySchema.parse(JSON.parse(line));
        } catch {
          unreadableLines++;
          continue;
        }
        if (query.before !== undefined && entry.seq >= query.before) continue;
        if (query.since !== undefined && Date.parse(entry.time) < query.since) break read;
        if (query.match !== undefined && !query.match(entry)) continue;
        if (newestFirst.length >= query.limit) {
          olderBefore = newestFirst.at(-1)?.seq;
          break read;
        }
        newestFirst.push(entry);
      }
    }
  } catch (cause) {
    throw unreadable(file, cause);
  } finally {
    await closeSegments({ segments });
  }
  return { entries: newestFirst.reverse(), unreadable: unreadableLines, ...(olderBefore === undefined ? {} : { olderBefore }), files: segments.map((s) => s.path) };
}
