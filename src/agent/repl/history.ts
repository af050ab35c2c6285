import { appendFile, readFile } from "node:fs/promises";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { withFileLock } from "../../util/file-lock.js";

export const HISTORY_SIZE = 1000;

/** Lines worth keeping: not blank, and not starting with a space (the shell convention for "don't record this"). */
export function keepInHistory(line: string): boolean {
  return line.trim() !== "" && !line.startsWith(" ");
}

async function readLines(file: string): Promise<string[]> {
  try {
    return (await readFile(file, "utf8")).split("\n").filter((l) => l !== "");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
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
  await withFileLock(file, () => appendFile(file, `${line.replace(/\n/g, " ")}\n`, { mode: 0o600 }));
}
