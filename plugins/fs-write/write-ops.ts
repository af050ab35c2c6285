import { FsError, fsErrorFrom } from "../../src/plugins/fs-errors.js";
import type { Jail } from "../../src/plugins/jail.js";
import { parseGuestPath } from "../../src/plugins/jail-path.js";
import { makeDirectories, openForWrite, removeIn } from "../../src/plugins/jail-write.js";

export interface WriteOptions {
  /** false: refuse with FS_EXISTS when the file is already there. Default true. */
  readonly overwrite?: boolean;
}

function tooLarge(shown: string, detail: string, max: number): FsError {
  return new FsError("FS_TOO_LARGE", `writing '${shown}' ${detail}, more than maxWriteBytes (${max}); write less data`, {
    data: { path: shown },
  });
}

export class FileWriter {
  constructor(
    private readonly jail: Jail,
    private readonly maxWriteBytes: number,
  ) {}

  /** Create or replace a file; returns the number of bytes written. */
  async write(rawPath: string, data: Uint8Array, options: WriteOptions = {}): Promise<number> {
    const path = parseGuestPath(rawPath);
    if (data.byteLength > this.maxWriteBytes) {
      throw tooLarge(path.shown, `would write ${data.byteLength} bytes`, this.maxWriteBytes);
    }
    const { handle } = await openForWrite(this.jail, path, { exclusive: options.overwrite === false });
    try {
      await handle.truncate(0);
      await handle.writeFile(data);
      return data.byteLength;
    } catch (error) {
      throw fsErrorFrom(error, path.shown);
    } finally {
      await handle.close();
    }
  }

  /** Append, creating the file if needed; the cap applies to the file's resulting size. */
  async append(rawPath: string, data: Uint8Array): Promise<number> {
    const path = parseGuestPath(rawPath);
    const { handle, stats } = await openForWrite(this.jail, path, { append: true });
    try {
      if (stats.size + data.byteLength > this.maxWriteBytes) {
        throw tooLarge(path.shown, `would grow it to ${stats.size + data.byteLength} bytes`, this.maxWriteBytes);
      }
      await handle.writeFile(data);
      return data.byteLength;
    } catch (error) {
      throw fsErrorFrom(error, path.shown);
    } finally {
      await handle.close();
    }
  }

  /** mkdir -p; true when the last directory was created, false when it already existed. */
  async mkdir(rawPath: string): Promise<boolean> {
    return makeDirectories(this.jail, parseGuestPath(rawPath));
  }

  /**
   * Remove a file, a symlink (the link only, never its target) or an empty directory; a non-empty
   * directory needs `recursive`, which never follows symlinks inside it. The base itself is refused.
   */
  async remove(rawPath: string, recursive = false): Promise<void> {
    const path = parseGuestPath(rawPath);
    const { parent, name } = await this.jail.resolveParent(path);
    await removeIn(this.jail, parent, name, path.shown, recursive);
  }
}
