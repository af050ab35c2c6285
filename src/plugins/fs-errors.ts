import { McpvmError } from "../util/errors.js";

export type FsErrorCode =
  | "FS_INVALID_ARGUMENT"
  | "FS_INVALID_PATH"
  | "FS_OUTSIDE_BASE"
  | "FS_SYMLINK"
  | "FS_NOT_FOUND"
  | "FS_NOT_FILE"
  | "FS_NOT_DIRECTORY"
  | "FS_NOT_EMPTY"
  | "FS_EXISTS"
  | "FS_TOO_LARGE"
  | "FS_PERMISSION_DENIED"
  | "FS_BASE_DIR_INVALID"
  | "FS_IO_ERROR";

/**
 * Errors of the fs-read and fs-write plugins. Messages name paths only as the guest wrote them
 * (relative to the base directory) and never carry the host's absolute paths or the OS error text.
 */
export class FsError extends McpvmError<FsErrorCode> {}

function errnoOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** True when a thrown value is a Node system error with one of these errno codes. */
export function hasErrno(error: unknown, ...codes: readonly string[]): boolean {
  const code = errnoOf(error);
  return code !== undefined && codes.includes(code);
}

/**
 * Translate a Node fs failure into an FsError about `shown` (the guest's path). The original error
 * is deliberately not attached as `cause`: its message and `path` hold host paths.
 */
export function fsErrorFrom(error: unknown, shown: string): FsError {
  if (error instanceof FsError) return error;
  const errno = errnoOf(error);
  const data = { path: shown, ...(errno === undefined ? {} : { errno }) };
  switch (errno) {
    case "ENOENT":
      return new FsError("FS_NOT_FOUND", `'${shown}' does not exist`, { data });
    case "ENOTDIR":
      return new FsError("FS_NOT_FOUND", `'${shown}' does not exist (a parent in the path is a file, not a directory)`, { data });
    case "EISDIR":
      return new FsError("FS_NOT_FILE", `'${shown}' is a directory, not a file; use listDir to see its entries`, { data });
    case "EEXIST":
      return new FsError("FS_EXISTS", `'${shown}' already exists`, { data });
    case "ENOTEMPTY":
      return new FsError("FS_NOT_EMPTY", `directory '${shown}' is not empty; pass { recursive: true } to remove it with its contents`, { data });
    case "EACCES":
    case "EPERM":
      return new FsError("FS_PERMISSION_DENIED", `permission denied for '${shown}'`, { data });
    case "ENAMETOOLONG":
      return new FsError("FS_INVALID_PATH", `'${shown}' is too long a path or has too long a name`, { data });
    case "ELOOP":
      return new FsError("FS_SYMLINK", `'${shown}' is a symbolic link that cannot be followed safely (missing target, a loop, or it changed while opening)`, { data });
    case "ENXIO":
      return new FsError("FS_NOT_FILE", `'${shown}' is not a regular file`, { data });
    default:
      return new FsError("FS_IO_ERROR", `could not access '${shown}' (${errno ?? "unknown error"})`, { data });
  }
}

/** For parseArgs: guest arguments that fail validation. */
export function invalidFsArgument(message: string): FsError {
  return new FsError("FS_INVALID_ARGUMENT", message);
}

export function outsideBase(shown: string): FsError {
  return new FsError("FS_OUTSIDE_BASE", `'${shown}' leads outside the base directory (through a symbolic link); only paths inside it can be used`, {
    data: { path: shown },
  });
}

/** Await fs work, turning its failure into an FsError about the guest's path. */
export async function guardFs<T>(shown: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw fsErrorFrom(error, shown);
  }
}
