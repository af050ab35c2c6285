import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../util/atomic-file.js";

export const HISTORY_SIZE = 1000;

/** Lines worth keeping: not blank, and not starting with a space (the shell convention for "don't record this"). */
export function keepInHistory(line: string): boolean {
  return line.trim() !== "" && !line.startsWith(" ");
}

/** The saved history, oldest first; the file is compacted when it has grown well past the limit. */
export async function loadHistory(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const lines = text.split("\n").filter((l) => l !== "");
  const kept = lines.slice(-HISTORY_SIZE);
  if (lines.length > 2 * HISTORY_SIZE) await writeFileAtomic(file, `${kept.join("\n")}\n`);
  return kept;
}

/** Appends one line (mode 0600: history can hold code and names worth keeping private). */
export async function appendHistory(file: string, line: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await appendFile(file, `${line.replace(/\n/g, " ")}\n`, { mode: 0o600 });
}
