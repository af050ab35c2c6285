import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, rmdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { FsError, fsErrorFrom, guardFs, hasErrno, outsideBase } from "./fs-errors.js";
import type { Jail, OpenedFile } from "./jail.js";
import { JailDirectory } from "./jail-dir.js";
import type { GuestPath } from "./jail-path.js";

export interface WriteOpenOptions {
  readonly append?: boolean;
  /** Fail with FS_EXISTS instead of opening an existing file. */
  readonly exclusive?: boolean;
}

/**
 * Open a file in the jail for writing, creating it if needed, with the same checks as reads: the
 * parent is resolved and checked, an existing symlink is followed only if it stays inside, the
 * final open uses O_NOFOLLOW and the descriptor is verified. It never truncates: callers truncate
 * only once the descriptor is known to be inside.
 */
export async function openForWrite(jail: Jail, path: GuestPath, options: WriteOpenOptions = {}): Promise<OpenedFile> {
  const { parent, name } = await jail.resolveParent(path);
  let target = join(parent, name);
  const real = await realpath(target).catch((error: unknown) => {
    // Missing, or a dangling symlink (which the O_NOFOLLOW open refuses): create `target` itself.
    if (hasErrno(error, "ENOENT")) return undefined;
    throw fsErrorFrom(error, path.shown);
  });
  if (real !== undefined) {
    if (!jail.contains(real)) throw outsideBase(path.shown);
    target = real;
  }
  return createIn(jail, dirname(target), basename(target), path.shown, options);
}

/** Open (creating it if needed) `name` in `parent`, a real directory already checked to be inside. */
export async function createIn(jail: Jail, parent: string, name: string, shown: string, options: WriteOpenOptions = {}): Promise<OpenedFile> {
  // O_NOFOLLOW and O_NONBLOCK as for reads (see Jail.openForRead); undefined constants (Windows) OR as 0.
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK |
    (options.append ? constants.O_APPEND : 0) | (options.exclusive ? constants.O_EXCL : 0);
  // Created through the directory's descriptor: a parent swapped since the check cannot send it outside.
  const handle = await JailDirectory.with(jail, parent, shown, (dir) => guardFs(shown, open(dir.entry(name), flags, 0o666)));
  return jail.verifyOpened(handle, join(parent, name), shown);
}

/** mkdir `name` in `parent` (a checked real directory); false when it already existed. */
export async function mkdirIn(jail: Jail, parent: string, name: string, shown: string): Promise<boolean> {
  return JailDirectory.with(jail, parent, shown, (dir) =>
    mkdir(dir.entry(name)).then(
      () => true,
      (error: unknown) => {
        if (hasErrno(error, "EEXIST")) return false;
        throw fsErrorFrom(error, shown);
      },
    ),
  );
}

/**
 * Remove `name` from `parent` (a checked real directory): a file or symlink (the link, never its
 * target), an empty directory, or with `recursive` a whole tree whose symlinks are removed, not followed.
 */
export async function removeIn(jail: Jail, parent: string, name: string, shown: string, recursive: boolean): Promise<void> {
  await JailDirectory.with(jail, parent, shown, async (dir) => {
    const target = dir.entry(name);
    try {
      const stats = await lstat(target);
      if (!stats.isDirectory()) await unlink(target);
      else if (recursive) await removeTree(jail, dir, name, shown);
      else await rmdir(target);
    } catch (error) {
      throw fsErrorFrom(error, shown);
    }
  });
}

/**
 * rm -r one level at a time, each directory held by descriptor and opened without following a
 * link (fs.rm works by path, so a subdirectory swapped for a link mid-walk would lead it outside).
 */
async function removeTree(jail: Jail, parent: JailDirectory, name: string, shown: string): Promise<void> {
  await JailDirectory.with(
    jail,
    parent.entry(name),
    shown,
    async (dir) => {
      for (const entry of await readdir(dir.path, { withFileTypes: true })) {
        if (entry.isDirectory()) await removeTree(jail, dir, entry.name, shown);
        else await unlink(dir.entry(entry.name));
      }
    },
    { follow: false },
  );
  await rmdir(parent.entry(name));
}

/**
 * mkdir -p inside the jail, one component at a time: each existing or new component is resolved
 * and checked before the next is created below it, so a symlinked component cannot lead outside.
 * Returns true when the last directory was created, false when it already existed.
 */
export async function makeDirectories(jail: Jail, path: GuestPath): Promise<boolean> {
  let current = jail.root;
  let created = false;
  for (const [index, segment] of path.segments.entries()) {
    const shown = path.segments.slice(0, index + 1).join("/");
    const next = join(current, segment);
    created = await mkdirIn(jail, current, segment, shown);
    const real = await guardFs(shown, realpath(next));
    if (!jail.contains(real)) throw outsideBase(shown);
    if (!(await guardFs(shown, stat(real))).isDirectory()) {
      throw new FsError("FS_NOT_DIRECTORY", `'${shown}' exists and is not a directory`, { data: { path: shown } });
    }
    current = real;
  }
  return created;
}
