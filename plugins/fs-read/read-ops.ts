import type { FileHandle } from "node:fs/promises";
import type { TextEncoding } from "../../src/plugins/encoding.js";
import { FsError } from "../../src/plugins/fs-errors.js";
import type { Jail } from "../../src/plugins/jail.js";
import { parseGuestPath } from "../../src/plugins/jail-path.js";

const READ_STEP = 256 * 1024;

export interface Chunk {
  readonly content: string | Uint8Array;
  readonly bytesRead: number;
  /** Where the next readChunk should start; equals offset + bytesRead. */
  readonly nextOffset: number;
  readonly size: number;
  readonly eof: boolean;
}

function tooLarge(shown: string, detail: string): FsError {
  return new FsError("FS_TOO_LARGE", `'${shown}' ${detail}; read it in parts with readChunk(path, offset, length)`, {
    data: { path: shown },
  });
}

/** Fill `buffer` from `position` until it is full or the file ends (one read may return less). */
async function readAt(handle: FileHandle, buffer: Buffer, position: number | null): Promise<number> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position === null ? null : position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * How many leading bytes of `bytes` form complete UTF-8 sequences, so a chunk boundary never splits
 * a character. Returns the full length when the tail is complete or not UTF-8 at all.
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** Exact-length copy: a Buffer view may sit on a larger shared allocation. */
function ownBytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer);
}

export class FileReader {
  constructor(
    private readonly jail: Jail,
    private readonly maxReadBytes: number,
  ) {}

  async readBytes(rawPath: string): Promise<Buffer> {
    const path = parseGuestPath(rawPath);
    const { handle, stats } = await this.jail.openForRead(path);
    try {
      const max = this.maxReadBytes;
      if (stats.size > max) throw tooLarge(path.shown, `is ${stats.size} bytes, more than maxReadBytes (${max})`);
      const parts: Buffer[] = [];
      let total = 0;
      // Read one byte past the cap so a file that grew after fstat is still refused.
      for (;;) {
        const part = Buffer.alloc(Math.min(READ_STEP, max + 1 - total));
        const got = await readAt(handle, part, null);
        if (got === 0) break;
        parts.push(part.subarray(0, got));
        total += got;
        if (total > max) throw tooLarge(path.shown, `is more than maxReadBytes (${max}) bytes`);
        if (got < part.length) break;
      }
      return Buffer.concat(parts, total);
    } finally {
      await handle.close();
    }
  }

  async readFile(rawPath: string, encoding: TextEncoding = "utf8"): Promise<string> {
    return (await this.readBytes(rawPath)).toString(encoding);
  }

  async readBinary(rawPath: string): Promise<Uint8Array> {
    return ownBytes(await this.readBytes(rawPath));
  }

  async readChunk(rawPath: string, offset: number, length: number, encoding: TextEncoding | "bytes" = "utf8"): Promise<Chunk> {
    const path = parseGuestPath(rawPath);
    if (length > this.maxReadBytes) {
      throw new FsError("FS_TOO_LARGE", `readChunk length ${length} is more than maxReadBytes (${this.maxReadBytes}); ask for a smaller length`, {
        data: { path: path.shown },
      });
    }
    const { handle, stats } = await this.jail.openForRead(path);
    try {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, stats.size - offset)));
      let got = await readAt(handle, buffer, offset);
      const eofAfterRead = offset + got >= stats.size;
      if (encoding === "utf8" || encoding === "utf-8") {
        const complete = completeUtf8Length(buffer.subarray(0, got));
        // Trimming to nothing would stall a reading loop; then hand back the partial character.
        if (!eofAfterRead && complete > 0) got = complete;
      }
      const bytes = buffer.subarray(0, got);
      return {
        content: encoding === "bytes" ? ownBytes(bytes) : bytes.toString(encoding),
        bytesRead: got,
        nextOffset: offset + got,
        size: stats.size,
        eof: offset + got >= stats.size,
      };
    } finally {
      await handle.close();
    }
  }
}
