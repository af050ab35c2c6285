import { readdir, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * writeFileAtomic writes `<file>.<pid>.<random>.tmp` and renames it over `<file>`. A writer killed
 * between the two leaves its temp file behind; nothing else ever removes it. The next writer of
 * the same file, holding the file's lock, clears the temp files of processes that no longer exist.
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Which temp-file names in `names` belong to `file`, with the writer's pid. Pure. */
export function tempFilesOf(file: string, names: readonly string[]): Array<{ name: string; pid: number }> {
  const pattern = new RegExp(`^${escapeRegExp(basename(file))}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  const out: Array<{ name: string; pid: number }> = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (match?.[1] !== undefined) out.push({ name, pid: Number(match[1]) });
  }
  return out;
}

function processExists(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Remove `file`'s temp files left by dead writers. Best effort: never fails the write it precedes. */
export async function removeStaleTempFiles(file: string): Promise<void> {
  try {
    const stale = tempFilesOf(file, await readdir(dirname(file))).filter((temp) => !processExists(temp.pid));
    await Promise.all(stale.map((temp) => rm(join(dirname(file), temp.name), { force: true })));
  } catch {
    // A folder we cannot list or a file we cannot remove only means the leftovers stay.
  }
}
