import { constants } from "node:fs";
import { mkdir, open, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { FsError, fsErrorFrom, guardFs, hasErrno, outsideBase } from "./fs-errors.js";
import type { Jail, OpenedFile } from "./jail.js";
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
  // O_NOFOLLOW and O_NONBLOCK as for reads (see Jail.openForRead); undefined constants (Windows) OR as 0.
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK |
    (options.append ? constants.O_APPEND : 0) | (options.exclusive ? constants.O_EXCL : 0);
  const handle = await guardFs(path.shown, open(target, flags, 0o666));
  return jail.verifyOpened(handle, target, path.shown);
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
    created = await mkdir(next).then(
      () => true,
      (error: unknown) => {
        if (hasErrno(error, "EEXIST")) return false;
        throw fsErrorFrom(error, shown);
      },
    );
    const real = await guardFs(shown, realpath(next));
    if (!jail.contains(real)) throw outsideBase(shown);
    if (!(await guardFs(shown, stat(real))).isDirectory()) {
      throw new FsError("FS_NOT_DIRECTORY", `'${shown}' exists and is not a directory`, { data: { path: shown } });
    }
    current = real;
  }
  return created;
}
