import { constants } from "node:fs";
import { access, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
// Loaded with this module, not on the first write (tried for start-up time): proper-lockfile loads
// signal-exit, whose SIGINT listener re-raises the signal when it is the only one left. Registered
// after a face's `process.once("SIGINT")` (run, serve, ui, mcp call), it is the only one left once
// that handler has been removed for the first Ctrl-C, and kills the process instead of letting it
// end gracefully (tests/e2e/progress-cancel.test.ts). The CLI's signal guard (src/cli/signal-guard.ts)
// now listens in every whole-process run, so this matters for runCli without it (tests, embedders).
import lockfile from "proper-lockfile";
import { McpvmError } from "./errors.js";
import { removeStaleTempFiles } from "./stale-temp-files.js";
import { asNotWritable } from "./not-writable.js";

export class FileLockError extends McpvmError<"FILE_LOCK_TIMEOUT" | "FILE_LOCK_FAILED"> {}

/** How long a writer waits for another process before giving up, in total. */
const WAIT_MS = 15_000;
/**
 * A lock whose holder stopped refreshing it for this long is taken over: the holder crashed or was
 * killed. proper-lockfile refreshes held locks every STALE_MS / 2, so a live writer never loses it.
 */
const STALE_MS = 5_000;

/**
 * Run `work` while holding an exclusive, cross-process lock on `file` (a `<file>.lock` directory
 * beside it, made with mkdir, which is atomic on every file system we support). Every writer of a
 * file in the config home goes through here and re-reads the file inside the lock, so two
 * processes that change it at once both keep their change. A crashed holder's lock goes stale and
 * is taken over; the file itself is only ever replaced by an atomic rename, so it is never half
 * written.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  // A folder we cannot write is said at once: proper-lockfile would retry EACCES for WAIT_MS.
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    .then(() => access(dirname(file), constants.W_OK))
    .catch((error: unknown) => {
      throw asNotWritable(error, file);
    });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 2,
      retries: { retries: Math.ceil(WAIT_MS / 100), factor: 1.2, minTimeout: 5, maxTimeout: 150, randomize: true },
      onCompromised: () => {
        // Another process took the lock over because ours looked stale (the event loop was blocked
        // for seconds). The write itself is still atomic; the lost update is the worst case.
      },
    });
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const denied = asNotWritable(cause, file);
    if (denied !== cause) throw denied;
    if (code === "ELOCKED") {
      throw new FileLockError(
        "FILE_LOCK_TIMEOUT",
        `${file} is locked by another mcpvm process and stayed locked for ${WAIT_MS / 1000} s. If no other mcpvm is running, remove the lock with: rm -r ${JSON.stringify(`${file}.lock`)}`,
        { data: { file }, cause },
      );
    }
    throw new FileLockError("FILE_LOCK_FAILED", `cannot lock ${file} (${(cause as Error).message}). Check that ${dirname(file)} exists and is writable by you.`, {
      data: { file },
      cause,
    });
  }
  try {
    // Holding the lock, no live writer of this file is between its write and its rename.
    await removeStaleTempFiles(file);
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
