import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { asNotWritable } from "./not-writable.js";

/**
 * Write a file so that a crash or a full disk never leaves it half written: the data goes to a
 * temporary file in the same folder, is flushed, and replaces the old file with one rename.
 * Approval, pin and config files all go through here.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let handle;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    handle = await open(temp, "w", mode);
  } catch (error) {
    throw asNotWritable(error, path);
  }
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    // A full disk fails here, not at open: say so and name the file meant, not the temporary one.
    throw asNotWritable(error, path);
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw asNotWritable(error, path);
  }
}
