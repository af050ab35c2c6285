import type { Writable } from "node:stream";

/**
 * A reader that goes away (`mcpvm mcp info memory | head -3`) ends what mcpvm prints, not mcpvm:
 * without a listener the write's EPIPE is an unhandled 'error' event, which printed a Node stack
 * trace and skipped closing the servers the command had started. The command finishes as usual
 * (its later writes go nowhere) and exits with its own code. Any other stream error still throws.
 */
export function outliveClosedPipe(stream: Writable): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    throw error;
  });
}
