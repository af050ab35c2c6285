/**
 * Write access to one directory on the host (the plugin's `baseDir`).
 * Every path is relative to that directory. Absolute paths, `..` and symbolic links that lead
 * outside it are refused with an error whose `code` is "FS_OUTSIDE_BASE".
 * Failures throw an Error with a stable `code`: FS_NOT_FOUND, FS_EXISTS, FS_NOT_FILE,
 * FS_NOT_DIRECTORY, FS_NOT_EMPTY, FS_TOO_LARGE, FS_OUTSIDE_BASE, FS_SYMLINK, FS_INVALID_PATH,
 * FS_INVALID_ARGUMENT, FS_PERMISSION_DENIED, FS_IO_ERROR.
 */
declare module "host:fs-write" {
  /** How a string `content` is turned into bytes; base64, hex and latin1 carry arbitrary bytes. */
  export type TextEncoding = "utf8" | "utf-8" | "base64" | "hex" | "latin1";

  export interface WriteOptions {
    /** Default "utf8". */
    encoding?: TextEncoding;
    /** Default true. false: throw FS_EXISTS if the file already exists. */
    overwrite?: boolean;
  }

  /**
   * Create or replace a file. The parent directory must exist (FS_NOT_FOUND otherwise; see mkdir).
   * Throws FS_TOO_LARGE when the content is over the plugin's maxWriteBytes.
   * @returns the number of bytes written.
   * @example writeFile("out/report.json", JSON.stringify(report, null, 2));
   */
  export function writeFile(path: string, content: string, options?: WriteOptions): number;

  /**
   * Append to a file, creating it when missing. Throws FS_TOO_LARGE when the file would grow past
   * maxWriteBytes.
   * @returns the number of bytes appended.
   * @example appendFile("logs/run.log", `${new Date().toISOString()} done\n`);
   */
  export function appendFile(path: string, content: string, options?: { encoding?: TextEncoding }): number;

  /**
   * Create or replace a file with raw bytes.
   * @returns the number of bytes written.
   */
  export function writeBinary(path: string, data: Uint8Array, options?: { overwrite?: boolean }): number;

  /**
   * Create a directory and any missing parents (like `mkdir -p`); repeating it is harmless.
   * Throws FS_NOT_DIRECTORY when a file is in the way.
   * @returns true if the directory was created, false if it already existed.
   */
  export function mkdir(path: string): boolean;

  /**
   * Remove a file, a symbolic link (only the link, never what it points to) or an empty directory.
   * A non-empty directory throws FS_NOT_EMPTY unless `{ recursive: true }` is given. The base
   * directory itself cannot be removed. Throws FS_NOT_FOUND when nothing is there.
   */
  export function remove(path: string, options?: { recursive?: boolean }): void;
}
