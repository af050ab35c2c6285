import { constants, type Stats } from "node:fs";
import { open, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { FsError, fsErrorFrom, guardFs, hasErrno, outsideBase } from "./fs-errors.js";
import { isInside, type GuestPath } from "./jail-path.js";

export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stats: Stats;
}

/**
 * A directory that file access is confined to. Every path is resolved with realpath and checked to
 * stay below the root, so `..`, absolute paths and symlinks (final or in a parent) cannot escape;
 * files are opened with O_NOFOLLOW and the opened descriptor is checked again, so a symlink swapped
 * in between the check and the open is refused as well. This class only reads; jail-write.ts adds
 * creation, so fs-read's audited import graph holds no write calls.
 */
export class Jail {
  private constructor(
    readonly root: string,
    /** Real paths inside the root that stay out of reach (mcpvm's config home: approvals, config). */
    private readonly excluded: readonly string[] = [],
  ) {}

  /**
   * Resolve the configured base directory once; it must exist and be a directory. `exclude` lists
   * folders guest code may never touch even when the base contains them: a guest able to write
   * approved-mcp.json or config.json could approve and start any command.
   */
  static async open(baseDir: string, options: { readonly exclude?: readonly string[] } = {}): Promise<Jail> {
    let root: string;
    try {
      root = await realpath(baseDir);
    } catch (_error) {
      throw new FsError("FS_BASE_DIR_INVALID", `baseDir '${baseDir}' does not exist; create it or change the plugin's baseDir setting`);
    }
    if (!(await stat(root)).isDirectory()) {
      throw new FsError("FS_BASE_DIR_INVALID", `baseDir '${baseDir}' is not a directory; point the plugin's baseDir setting at a folder`);
    }
    const excluded = await Promise.all((options.exclude ?? []).map((dir) => realpath(dir).catch(() => dir)));
    if (excluded.some((dir) => isInside(dir, root))) {
      throw new FsError("FS_BASE_DIR_INVALID", `baseDir '${baseDir}' is inside mcpvm's config home, which guest code may not reach; choose another folder`);
    }
    return new Jail(root, excluded);
  }

  /** Inside the root and outside every excluded folder. */
  contains(real: string): boolean {
    return isInside(this.root, real) && !this.excluded.some((dir) => isInside(dir, real));
  }

  /** The real path of an existing entry, after checking it lies inside the jail. */
  async resolveExisting(path: GuestPath): Promise<string> {
    const real = await guardFs(path.shown, realpath(join(this.root, ...path.segments)));
    if (!this.contains(real)) throw outsideBase(path.shown);
    return real;
  }

  /** The real path of the parent directory and the final name, for entries that may not exist yet. */
  async resolveParent(path: GuestPath): Promise<{ readonly parent: string; readonly name: string }> {
    const name = path.segments.at(-1);
    if (name === undefined) {
      throw new FsError("FS_INVALID_PATH", "this operation needs a path below the base directory, not the base directory itself ('.')");
    }
    const parentSegments = path.segments.slice(0, -1);
    const parentShown = parentSegments.length === 0 ? "." : parentSegments.join("/");
    let parent: string;
    try {
      parent = await realpath(join(this.root, ...parentSegments));
    } catch (error) {
      if (!hasErrno(error, "ENOENT", "ENOTDIR")) throw fsErrorFrom(error, parentShown);
      throw new FsError("FS_NOT_FOUND", `parent directory '${parentShown}' does not exist; create it first with mkdir`, {
        data: { path: path.shown },
      });
    }
    if (!this.contains(parent) || !this.contains(join(parent, name))) throw outsideBase(path.shown);
    return { parent, name };
  }

  async openForRead(path: GuestPath): Promise<OpenedFile> {
    const real = await this.resolveExisting(path);
    // O_NOFOLLOW: the final component may not have become a symlink since the check. O_NONBLOCK: a
    // FIFO planted in the jail cannot hang the open. Spelled out so the audit sees read-only flags.
    const handle = await guardFs(path.shown, open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK));
    return this.verifyOpened(handle, real, path.shown);
  }

  /**
   * Accept a freshly opened descriptor only if it really lies inside the jail and is a regular
   * file; otherwise close it and throw. This is what catches a symlink or a parent directory
   * swapped in between the path check and the open.
   */
  async verifyOpened(handle: FileHandle, expected: string, shown: string): Promise<OpenedFile> {
    try {
      const opened = await this.openedPath(handle, expected);
      if (opened === undefined || !this.contains(opened)) throw outsideBase(shown);
      const stats = await handle.stat();
      if (stats.isDirectory()) {
        throw new FsError("FS_NOT_FILE", `'${shown}' is a directory, not a file; use listDir to see its entries`, { data: { path: shown } });
      }
      if (!stats.isFile()) {
        throw new FsError("FS_NOT_FILE", `'${shown}' is not a regular file (a device, socket or pipe)`, { data: { path: shown } });
      }
      return { handle, stats };
    } catch (error) {
      await handle.close();
      throw fsErrorFrom(error, shown);
    }
  }

  /**
   * Where the descriptor really points. Linux tells us through /proc/self/fd; elsewhere we re-resolve
   * the checked path and accept it only if it still names the very file we opened (same dev/inode).
   */
  private async openedPath(handle: FileHandle, expected: string): Promise<string | undefined> {
    const viaProc = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (viaProc !== undefined) return viaProc.replace(/ \(deleted\)$/, "");
    const [now, opened] = await Promise.all([realpath(expected), handle.stat()]);
    const current = await stat(now);
    return current.dev === opened.dev && current.ino === opened.ino ? now : undefined;
  }
}
