import type { FileHandle } from "node:fs/promises";

/**
 * Line-at-a-time reading of an append-only log (the audit log, the activity log) through an open
 * descriptor, up to a byte offset fixed when the read began: memory stays at one chunk and one line
 * however large the file, and lines appended meanwhile are not read half-written.
 */
const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * The most of one line that is kept: log lines are a few KB at most, so a longer one is damage (a
 * file pasted in, a missing newline) and is given back cut to this length, which no JSON parser accepts.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Lines from the start of the file up to `end`, oldest first; the text after the last newline (a torn line) comes last, when there is any. */
export async function* linesForward(handle: FileHandle, end: number, maxLine = MAX_LINE_BYTES): AsyncGenerator<string> {
  const chunk = Buffer.alloc(CHUNK);
  let pieces: Buffer[] = [];
  let kept = 0;
  for (let position = 0; position < end; ) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, end - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let from = 0;
    for (let at = chunk.indexOf(NEWLINE, 0); at !== -1 && at < bytesRead; at = chunk.indexOf(NEWLINE, from)) {
      pieces.push(chunk.subarray(from, Math.min(at, from + Math.max(0, maxLine - kept))));
      yield line(pieces, maxLine);
      pieces = [];
      kept = 0;
      from = at + 1;
    }
    if (from < bytesRead && kept < maxLine) {
      // Copied: the chunk is reused by the next read.
      const rest = Buffer.from(chunk.subarray(from, Math.min(bytesRead, from + maxLine - kept)));
      pieces.push(rest);
      kept += rest.length;
    }
  }
  if (kept > 0) yield line(pieces, maxLine);
}

/** Lines from `end` back to the start of the file, newest first; a torn last line (no newline after it) comes first. */
export async function* linesBackward(handle: FileHandle, end: number, maxLine = MAX_LINE_BYTES): AsyncGenerator<string> {
  const chunk = Buffer.alloc(CHUNK);
  /** The line being assembled, its later parts first (it is read back to front). */
  let pieces: Buffer[] = [];
  let kept = 0;
  /** The newline that ends the file ends its last line: it starts no empty line after it. */
  let skipTerminator = true;
  /** Whether a line (perhaps empty) lies before the last newline found: the file's first line is yielded at its start. */
  let pending = false;
  for (let position = end; position > 0; ) {
    const length = Math.min(CHUNK, position);
    position -= length;
    const { bytesRead } = await handle.read(chunk, 0, length, position);
    if (bytesRead < length) throw new Error(`the file shrank while it was read (at byte ${position + bytesRead})`);
    let to = length;
    for (let at = chunk.lastIndexOf(NEWLINE, to - 1); at !== -1; at = to > 0 ? chunk.lastIndexOf(NEWLINE, to - 1) : -1) {
      if (skipTerminator && at === length - 1 && position + length === end && kept === 0) {
        skipTerminator = false;
        to = at;
        continue;
      }
      skipTerminator = false;
      pieces.unshift(tail(chunk.subarray(at + 1, to), maxLine - kept));
      yield line(pieces, maxLine);
      pieces = [];
      kept = 0;
      pending = true;
      to = at;
    }
    skipTerminator = false;
    if (to > 0) pending = true;
    if (to > 0 && kept < maxLine) {
      const rest = Buffer.from(tail(chunk.subarray(0, to), maxLine - kept));
      pieces.unshift(rest);
      kept += rest.length;
    }
  }
  if (pending) yield line(pieces, maxLine);
}

/** The last `room` bytes: read back to front, a line too long keeps its end (what the next piece would follow). */
function tail(bytes: Buffer, room: number): Buffer {
  return room <= 0 ? Buffer.alloc(0) : bytes.length > room ? bytes.subarray(bytes.length - room) : bytes;
}

function line(pieces: Buffer[], maxLine: number): string {
  const text = Buffer.concat(pieces).toString("utf8");
  // A line cut short could still parse (an entry with a megabyte glued on): cut, it must never be taken for an entry.
  return Buffer.byteLength(text) >= maxLine ? `(line longer than ${maxLine} bytes)` : text;
}
