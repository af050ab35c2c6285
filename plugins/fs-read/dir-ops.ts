import type { Stats } from "node:fs";
import { lstat, opendir, stat } from "node:fs/promises";
import { FsError, fsErrorFrom } from "../../src/plugins/fs-errors.js";
import type { Jail } from "../../src/plugins/jail.js";
import { JailDirectory } from "../../src/plugins/jail-dir.js";
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

/** The entries of `real`, a directory already checked to be inside the jail, sorted by name. */
export async function listDirectory(jail: Jail, real: string, shown: string, maxListEntries: number): Promise<DirEntry[]> {
  // Listed through its descriptor: a directory swapped for a link since the check is not followed.
  return JailDirectory.with(jail, real, shown, (opened) => listOpened(opened, shown, maxListEntries));
}

async function listOpened(opened: JailDirectory, shown: string, maxListEntries: number): Promise<DirEntry[]> {
  const names: string[] = [];
  try {
    const dir = await opendir(opened.path);
    for await (const entry of dir) {
      names.push(entry.name);
      if (names.length > maxListEntries) {
        throw new FsError("FS_TOO_LARGE", `directory '${shown}' has more than maxListEntries (${maxListEntries}) entries; list a subdirectory instead`, {
          data: { path: shown },
        });
      }
    }
  } catch (error) {
    throw fsErrorFrom(error, shown);
  }
  names.sort();
  return Promise.all(
    names.map(async (name) => {
      const entryShown = shown === "." ? name : `${shown}/${name}`;
      const stats = await lstat(opened.entry(name)).catch((error: unknown) => {
        throw fsErrorFrom(error, entryShown);
      });
      const type = entryType(stats);
      return { name, type, size: type === "file" ? stats.size : 0 };
    }),
  );
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
    return listDirectory(this.jail, real, path.shown, this.maxListEntries);
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
