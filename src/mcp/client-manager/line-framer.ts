import { parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE, type JSONRPCMessage } from "@modelcontextprotocol/client";

export class FrameTooLargeError extends Error {}

/**
 * Splits a stdio server's stdout into newline-delimited JSON-RPC messages. Unlike the SDK's
 * ReadBuffer, which skips non-JSON lines silently, it reports them, so a server that logs to
 * stdout gets a diagnosis instead of a bare timeout.
 */
export class LineFramer {
  private pending: Buffer | undefined;

  constructor(
    private readonly onMessage: (message: JSONRPCMessage) => void,
    private readonly onGarbage: (line: string) => void,
    private readonly maxLineBytes: number = STDIO_DEFAULT_MAX_BUFFER_SIZE,
    /** Sees each parsed line first; true takes it (an answer to a raw call, see raw-call.ts) before the SDK's schema runs. */
    private readonly intercept: (value: unknown) => boolean = () => false,
  ) {}

  /** Throws FrameTooLargeError when one line grows past maxLineBytes (the stream cannot be framed any more). */
  push(chunk: Buffer): void {
    let buffer = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    for (let index = buffer.indexOf(0x0a); index !== -1; index = buffer.indexOf(0x0a)) {
      const line = buffer.toString("utf8", 0, index).replace(/\r$/, "");
      buffer = buffer.subarray(index + 1);
      if (line.trim().length > 0) this.parse(line);
    }
    if (buffer.length > this.maxLineBytes) {
      this.pending = undefined;
      throw new FrameTooLargeError(`the server wrote a line on stdout longer than ${this.maxLineBytes} bytes (the per-message cap); it was cut off and the server disconnected`);
    }
    this.pending = buffer.length > 0 ? buffer : undefined;
  }

  private parse(line: string): void {
    let value: unknown;
    let message: JSONRPCMessage;
    try {
      value = JSON.parse(line) as unknown;
      if (this.intercept(value)) return;
      message = parseJSONRPCMessage(value);
    } catch {
      this.onGarbage(line);
      return;
    }
    this.onMessage(message);
  }

  clear(): void {
    this.pending = undefined;
  }
}
