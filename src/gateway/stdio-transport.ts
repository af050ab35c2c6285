import type { Readable, Writable } from "node:stream";
import { parseJSONRPCMessage, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";

/**
 * The gateway's stdio server transport: the SDK's framing (newline-delimited JSON-RPC, lines that
 * are not JSON skipped, the same buffer cap, stdin's end closes it), with one difference: every
 * parsed line is offered to `intercept` before the SDK's message schema runs, so the fast lane
 * (fast-lane/stdio-lane.ts) can answer a plain tools/call without the SDK's per-message work.
 * Whatever it does not take reaches serveStdio exactly as the SDK's own transport would deliver it.
 */
/** A message on stdin over the buffer cap: the transport closes, and stdin is no longer read. */
export class StdinOverflowError extends Error {
  constructor(limit: number) {
    super(`A message on stdin is larger than ${limit} bytes (the gateway's per-message cap), so the connection is closed; send large data as a file path or a resource instead of inline.`);
    this.name = "StdinOverflowError";
  }
}

export class GatewayStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    /** Sees each parsed line first; true means it was answered and goes no further. */
    private readonly intercept: (value: unknown) => boolean,
    private readonly maxBufferSize: number = STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    try {
      this.push(chunk);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.close();
    }
  };
  private readonly onStdinError = (error: Error): void => this.onerror?.(error);
  private readonly onStdinEnd = (): void => void this.close();
  private readonly onStdoutError = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error("GatewayStdioTransport already started"));
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onStdinEnd);
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStdinError);
    this.stdin.on("end", this.onStdinEnd);
    this.stdin.on("close", this.onStdinEnd);
    this.stdout.on("error", this.onStdoutError);
    return Promise.resolve();
  }

  /**
   * The cap is per message: a chunk can hold the end of one message under the cap and the start of
   * the next, so the size checked is each line's and the unfinished tail's, never pending + chunk
   * (that refused a message 4 KiB under the cap followed at once by another, and shut the gateway down).
   */
  private push(chunk: Buffer): void {
    let buffer = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    for (let index = buffer.indexOf(0x0a); index !== -1 && !this.closed; index = buffer.indexOf(0x0a)) {
      if (index + 1 > this.maxBufferSize) throw new StdinOverflowError(this.maxBufferSize);
      const line = buffer.toString("utf8", 0, index).replace(/\r$/, "");
      buffer = buffer.subarray(index + 1);
      this.deliver(line);
    }
    if (buffer.length > this.maxBufferSize) throw new StdinOverflowError(this.maxBufferSize);
    this.pending = buffer.length > 0 && !this.closed ? buffer : undefined;
  }

  private deliver(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch {
      return; // As the SDK's ReadBuffer: a line that is not JSON is skipped.
    }
    try {
      if (this.intercept(value)) return;
      this.onmessage?.(parseJSONRPCMessage(value));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStdinError);
    this.stdin.off("end", this.onStdinEnd);
    this.stdin.off("close", this.onStdinEnd);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pending = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  /** Resolves once written (or queued behind a full pipe until it drains); rejects on a write error. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error("GatewayStdioTransport is closed"));
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (error?: Error): void => {
        if (settled) return;
        settled = true;
        this.stdout.off("error", settle);
        this.stdout.off("drain", onDrain);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = (): void => settle();
      this.stdout.once("error", settle);
      if (this.stdout.write(serializeMessage(message))) settle();
      else if (!settled) this.stdout.once("drain", onDrain);
    });
  }
}
