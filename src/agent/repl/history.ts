import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { McpvmError } from "../../util/errors.js";
import { withFileLock } from "../../util/file-lock.js";
import { readFailure, StateFileTooLargeError } from "../../util/own-file.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";

/** The history file cannot be read or written: said once by the REPL, which goes on without it. */
export class HistoryFileError extends McpvmError<"HISTORY_UNAVAILABLE"> {}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

function historyError(file: string, action: "read" | "saved", cause: unknown): HistoryFileError {
  const read = readFailure(file, cause);
  const failure = action === "saved" ? { ...read, problem: read.problem.replace("cannot be read", "cannot be written") } : read;
  const effect = action === "read" ? "earlier lines are not offered (↑)" : "lines typed now are not saved";
  return new HistoryFileError("HISTORY_UNAVAILABLE", `the REPL history ${file} ${failure.problem}, so ${effect}. Fix it with: ${failure.fix}`, { data: { file, action }, cause });
}

/**
 * What the REPL does with a history problem: says it once per kind (read, write) through `say`,
 * never on every line typed, and never stops for it.
 */
export function historyWarner(say: (message: string) => void): (error: unknown) => void {
  const said = new Set<unknown>();
  return (error) => {
    const kind = error instanceof HistoryFileError ? error.data?.action : "other";
    if (said.has(kind)) return;
    said.add(kind);
    say(error instanceof Error ? error.message : String(error));
  };
}

/**
 * Opens the history without following a symlink (a link planted in the home would have the REPL
 * read or append to a file elsewhere, as the audit log refuses to) and only when it is a regular
 * file; one found with group or world access is made 0600 again, since it can hold code and names.
 */
async function openHistory(file: string, flags: number): Promise<FileHandle> {
  const handle = await open(file, flags | NO_FOLLOW, 0o600);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: info.isDirectory() ? "EISDIR" : "EINVAL" });
    if ((info.mode & 0o077) !== 0) await handle.chmod(0o600);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export const HISTORY_SIZE = 1000;

/** Lines worth keeping: not blank, and not starting with a space (the shell convention for "don't record this"). */
export function keepInHistory(line: string): boolean {
  return line.trim() !== "" && !line.startsWith(" ");
}

async function readLines(file: string): Promise<string[]> {
  let handle: FileHandle;
  try {
    handle = await openHistory(file, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw historyError(file, "read", error);
  }
  try {
    // Refused from its size, unread: the REPL says so once and goes on without it (HISTORY_UNAVAILABLE).
    const size = (await handle.stat()).size;
    if (size > STATE_FILE_LIMITS.history) throw new StateFileTooLargeError(file, size, STATE_FILE_LIMITS.history);
    return (await handle.readFile("utf8")).split("\n").filter((l) => l !== "");
  } catch (error) {
    throw historyError(file, "read", error);
  } finally {
    await handle.close();
  }
}

/** The saved history, oldest first; the file is compacted when it has grown well past the limit. */
export async function loadHistory(file: string): Promise<string[]> {
  const lines = await readLines(file);
  if (lines.length <= 2 * HISTORY_SIZE) return lines.slice(-HISTORY_SIZE);
  // Another REPL on this home may be appending: compaction replaces the file, so it re-reads and
  // rewrites it under the lock every append takes, or the lines appended in between would be lost.
  return withFileLock(file, async () => {
    const kept = (await readLines(file)).slice(-HISTORY_SIZE);
    await writeFileAtomic(file, `${kept.join("\n")}\n`);
    return kept;
  });
}

/** Appends one line (mode 0600: history can hold code and names worth keeping private), under the file's lock (see loadHistory). */
export async function appendHistory(file: string, line: string): Promise<void> {
  await withFileLock(file, async () => {
    let handle: FileHandle;
    try {
      handle = await openHistory(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
    } catch (error) {
      throw historyError(file, "saved", error);
    }
    try {
      await handle.writeFile(`${line.replace(/\n/g, " ")}\n`);
    } catch (error) {
      throw historyError(file, "saved", error);
    } finally {
      await handle.close();
    }
  });
}
