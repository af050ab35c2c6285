import { closeSync, constants, openSync } from "node:fs";

/**
 * Named pipes being read now (`mcpvm run <(…)`, `mcpvm run ./fifo`). Opening a FIFO for reading blocks
 * until a writer opens it, inside one of libuv's pool threads, and Node's exit waits for those threads:
 * a SIGTERM while nobody had written yet printed its line and then never ended the process. Opening the
 * pipe for writing without blocking (it succeeds at once, since a reader is waiting) lets that open return.
 */
const pending = new Set<string>();

/** Runs `read` of the FIFO at `path`, known as pending until it settles. */
export async function readingFifo<T>(path: string, read: () => Promise<T>): Promise<T> {
  pending.add(path);
  try {
    return await read();
  } finally {
    pending.delete(path);
  }
}

/** Lets every pending FIFO open return (it reads an empty pipe): called right before the process exits. */
export function releaseFifoReads(): void {
  for (const path of pending) {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: its reader is no longer waiting; ENOENT: the pipe is gone. Either way nothing holds the exit.
    }
  }
  pending.clear();
}
