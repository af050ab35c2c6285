import type { Stats } from "node:fs";
import { lstat, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import { FsError, fsErrorFrom } from "../../src/plugins/fs-errors.js";
import type { Jail } from "../../src/plugins/jail.js";
import { parseGuestPath } from "../../src/plugins/jail-path.js";

export type EntryType = "file" | "directory" | "symlink" | "other";

export interface DirEntry {
  readonly name: string;
  readonly type: EntryType;
  /** Bytes for files; 0 for everything else. */
  readonly size: number;
}

export interface FileInfo {
  readonly type: Exclude<EntryType, "symlink">;
  readonly size: number;
  /** Last modification, ISO 8601. */
  readonly modified: string;
}

function entryType(stats: Stats): EntryType {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  return "other";
}

export class DirectoryReader {
  constructor(
    private readonly jail: Jail,
    private readonly maxListEntries: number,
  ) {}

  /** Entries sorted by name. Symlinks are reported as such (lstat), never followed or described. */
  async listDir(rawPath: string): Promise<DirEntry[]> {
    const path = parseGuestPath(rawPath);
    const real = await this.jail.resolveExisting(path);
    const info = await stat(real).catch((error: unknown) => {
      throw fsErrorFrom(error, path.shown);
    });
    if (!info.isDirectory()) {
      throw new FsError("FS_NOT_DIRECTORY", `'${path.shown}' is not a directory; use readFile or stat for files`, { data: { path: path.shown } });
    }
    const names: string[] = [];
    try {
      const dir = await opendir(real);
      for await (const entry of dir) {
        names.push(entry.name);
        if (names.length > this.maxListEntries) {
          throw new FsError("FS_TOO_LARGE", `directory '${path.shown}' has more than maxListEntries (${this.maxListEntries}) entries; list a subdirectory instead`, {
            data: { path: path.shown },
          });
        }
      }
    } catch (error) {
      throw fsErrorFrom(error, path.shown);
    }
    names.sort();
    return Promise.all(
      names.map(async (name) => {
        const shown = path.shown === "." ? name : `${path.shown}/${name}`;
        const stats = await lstat(join(real, name)).catch((error: unknown) => {
          throw fsErrorFrom(error, shown);
        });
        const type = entryType(stats);
        return { name, type, size: type === "file" ? stats.size : 0 };
      }),
    );
  }

  /** Facts about an entry; a symlink inside the base is described by its target. */
  async stat(rawPath: string): Promise<FileInfo> {
    const path = parseGuestPath(rawPath);
    const real = await this.jail.resolveExisting(path);
    const stats = await stat(real).catch((error: unknown) => {
      throw fsErrorFrom(error, path.shown);
    });
    // stat() follows links, so the entry is never reported as a symlink here.
    const type = stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
    return { type, size: type === "file" ? stats.size : 0, modified: stats.mtime.toISOString() };
  }

  /** false when nothing is there; paths that leave the base still throw FS_OUTSIDE_BASE. */
  async exists(rawPath: string): Promise<boolean> {
    const path = parseGuestPath(rawPath);
    try {
      await this.jail.resolveExisting(path);
      return true;
    } catch (error) {
      if (error instanceof FsError && error.code === "FS_NOT_FOUND") return false;
      throw error;
    }
  }
}
