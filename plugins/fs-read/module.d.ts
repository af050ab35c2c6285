/**
 * Read-only access to one directory on the host (the plugin's `baseDir`).
 * Every path is relative to that directory; "." is the directory itself. Absolute paths, `..` and
 * symbolic links that lead outside it are refused with an error whose `code` is "FS_OUTSIDE_BASE".
 * Failures throw an Error with a stable `code`: FS_NOT_FOUND, FS_NOT_FILE, FS_NOT_DIRECTORY,
 * FS_TOO_LARGE, FS_OUTSIDE_BASE, FS_SYMLINK, FS_INVALID_PATH, FS_INVALID_ARGUMENT,
 * FS_PERMISSION_DENIED, FS_IO_ERROR.
 */
declare module "host:fs-read" {
  /** Encodings for text results; base64, hex and latin1 carry arbitrary bytes as a string. */
  export type TextEncoding = "utf8" | "utf-8" | "base64" | "hex" | "latin1";

  export interface ReadOptions {
    /** Default "utf8". */
    encoding?: TextEncoding;
  }

  /** One piece of a file, from readChunk. */
  export interface Chunk<T extends string | Uint8Array = string> {
    content: T;
    /** Bytes this chunk covers (a utf8 chunk stops before a character split by the boundary). */
    bytesRead: number;
    /** Pass this as the next call's offset. */
    nextOffset: number;
    /** The file's size in bytes when it was opened. */
    size: number;
    /** True when this chunk reaches the end of the file. */
    eof: boolean;
  }

  export interface DirEntry {
    name: string;
    /** Symbolic links are reported as "symlink" and not followed. */
    type: "file" | "directory" | "symlink" | "other";
    /** Size in bytes for files, 0 for everything else. */
    size: number;
  }

  export interface FileInfo {
    type: "file" | "directory" | "other";
    /** Size in bytes for files, 0 for everything else. */
    size: number;
    /** Last modification time, ISO 8601 (e.g. "2025-01-31T12:00:00.000Z"). */
    modified: string;
  }

  /**
   * Read a whole file as text. Throws FS_TOO_LARGE above the plugin's maxReadBytes (use readChunk),
   * FS_NOT_FILE for a directory.
   * @example const cfg = JSON.parse(readFile("config/app.json"));
   */
  export function readFile(path: string, options?: ReadOptions): string;

  /**
   * Read up to `length` bytes starting at byte `offset` (length at most maxReadBytes). With utf8 a
   * chunk never splits a character, so always continue from `nextOffset`, not offset + length.
   * @example
   * let offset = 0, chunk;
   * do { chunk = readChunk("logs/big.log", offset, 65536); offset = chunk.nextOffset; } while (!chunk.eof);
   */
  export function readChunk(path: string, offset: number, length: number, options?: ReadOptions): Chunk<string>;
  /** As above, with `encoding: "bytes"` returning the raw bytes as a Uint8Array. */
  export function readChunk(path: string, offset: number, length: number, options: { encoding: "bytes" }): Chunk<Uint8Array>;

  /** Read a whole file as bytes. Throws FS_TOO_LARGE above maxReadBytes. */
  export function readBinary(path: string): Uint8Array;

  /** The entries of a directory, sorted by name. Throws FS_NOT_DIRECTORY for a file. */
  export function listDir(path: string): DirEntry[];

  /** Type, size and modification time of a file or directory (symbolic links are followed inside the base). */
  export function stat(path: string): FileInfo;

  /** True when the path exists, false when it does not. Still throws FS_OUTSIDE_BASE for paths outside the base. */
  export function exists(path: string): boolean;
}
