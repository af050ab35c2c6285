import { dirname } from "node:path";
import { McpvmError } from "./errors.js";

/** CONFIG_: a home mcpvm cannot write is a set-up problem (exit code 3), not an internal error. */
export class NotWritableError extends McpvmError<"CONFIG_HOME_NOT_WRITABLE"> {}

const DENIED: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "the file system is full",
  EDQUOT: "the disk quota is used up",
};
/** A full disk is not fixed by permissions: say what is. */
const FULL = new Set(["ENOSPC", "EDQUOT"]);

/**
 * A write to the config home that the OS refused, said in words and naming the file meant (not a
 * temporary or lock file); any other error is returned as it was.
 */
export function asNotWritable(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // A folder where the file belongs (made by hand, or by a tool that mistook the name): the rename
  // that replaces the file cannot go over it. Said as what it is, not as a bare EISDIR.
  if (code === "EISDIR") {
    return new NotWritableError("CONFIG_HOME_NOT_WRITABLE", `cannot write ${path}: it is a folder, not a file; move it away (mv ${path} ${path}.broken) and try again`, {
      data: { file: path, errno: code },
      cause: error,
    });
  }
  const why = code === undefined ? undefined : DENIED[code];
  if (why === undefined) return error;
  const next = FULL.has(code as string) ? `free space on the file system that holds ${dirname(path)}` : `check the permissions of ${dirname(path)}`;
  return new NotWritableError("CONFIG_HOME_NOT_WRITABLE", `cannot write ${path}: ${why}; ${next} (the config home is $MCPVM_HOME, else ~/.mcpvm)`, {
    data: { file: path, errno: code },
    cause: error,
  });
}
