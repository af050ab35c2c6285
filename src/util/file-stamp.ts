import { stat } from "node:fs/promises";

/**
 * What identifies one version of a file, to notice that another process rewrote it: an atomic
 * rename changes the inode, an edit in place the mtime or size. "absent" when there is no file.
 */
export async function fileStamp(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return "absent";
  }
}
