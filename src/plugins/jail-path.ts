import { isAbsolute, relative, sep } from "node:path";
import { FsError } from "./fs-errors.js";

/** Longest guest path accepted, in characters; real limits (PATH_MAX) are enforced by the OS. */
export const MAX_GUEST_PATH_LENGTH = 4096;

/** A guest path after validation: its segments below the base directory and how to show it. */
export interface GuestPath {
  readonly segments: readonly string[];
  /** The path as messages show it: relative, '/'-separated, "." for the base itself. */
  readonly shown: string;
}

/**
 * Split a guest path into segments below the base directory, refusing anything that could name a
 * place outside it lexically: absolute paths, drive letters, `..` segments, NUL bytes. Backslashes
 * count as separators so a Windows-style `..\x` is refused too. Symlinks are the I/O side's job.
 */
export function parseGuestPath(input: string): GuestPath {
  if (input.length === 0) {
    throw new FsError("FS_INVALID_PATH", "path is empty; use '.' for the base directory");
  }
  if (input.length > MAX_GUEST_PATH_LENGTH) {
    throw new FsError("FS_INVALID_PATH", `path is longer than ${MAX_GUEST_PATH_LENGTH} characters`);
  }
  if (input.includes("\0")) {
    throw new FsError("FS_INVALID_PATH", "path contains a NUL character");
  }
  if (/^[\\/]/.test(input) || /^[a-zA-Z]:/.test(input)) {
    throw new FsError(
      "FS_OUTSIDE_BASE",
      `absolute paths are not allowed ('${input}'); paths are relative to the base directory, e.g. 'notes/todo.txt'`,
    );
  }
  const segments = input.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) {
    throw new FsError(
      "FS_OUTSIDE_BASE",
      `'..' is not allowed in paths ('${input}'); paths are relative to the base directory and cannot leave it`,
    );
  }
  return { segments, shown: segments.length === 0 ? "." : segments.join("/") };
}

/** Whether `candidate` (an absolute, symlink-free path) is `root` or lies below it. */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}
