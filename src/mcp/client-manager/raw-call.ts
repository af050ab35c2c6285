import { ProtocolError, SdkError, SdkErrorCode, type CallToolResult } from "@modelcontextprotocol/client";

/**
 * tools/call on our own stdio transport without the SDK client (docs/ARCHITECTURE.md "The
 * gateway's fast lane"): the request goes out as one prebuilt line with an id of our own (a
 * string the SDK never uses: it numbers its requests), and the answer is taken off the stdout
 * stream before the SDK client would see it, so neither side runs the SDK's per-message schemas.
 * The result gets a structural check instead (check below); timeouts, the caller's signal and the
 * connection's end fail the call with the SDK's own error kinds, so classifyCallFailure gives the
 * same McpvmError either way, and a timeout or an abort sends notifications/cancelled as the SDK does.
 * Server→client requests and notifications during the call still go to the SDK client.
 */

/** Our request ids: a prefix no numeric SDK id can have. */
export const RAW_ID_PREFIX = "mcpvm-raw-";

interface Pending {
  resolve(result: CallToolResult): void;
  reject(error: unknown): void;
}

export interface RawCallOptions {
  readonly timeout: number;
  readonly signal?: AbortSignal;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const str = (value: unknown): boolean => typeof value === "string";

/** What is wrong with one content block, or undefined (the MCP 2025-11-25 ContentBlock kinds). */
function contentProblem(block: unknown): string | undefined {
  if (!isPlainObject(block)) return "a content item is not an object";
  switch (block.type) {
    case "text":
      return str(block.text) ? undefined : "a text item has no string text";
    case "image":
    case "audio":
      return str(block.data) && str(block.mimeType) ? undefined : `an ${block.type} item needs string data and mimeType`;
    case "resource_link":
      return str(block.uri) && str(block.name) ? undefined : "a resource_link item needs string uri and name";
    case "resource":
      return isPlainObject(block.resource) && str(block.resource.uri) ? undefined : "a resource item needs a resource with a string uri";
    default:
      return `a content item has the unknown type ${JSON.stringify(block.type)}`;
  }
}

/**
 * The structural check that stands in for the SDK's CallToolResult schema: an object whose
 * content is an array of known content blocks, structuredContent an object, isError a boolean.
 * Pure; returns the result (a 2026 `resultType` dropped, as the SDK's 2025 codec does) or a problem.
 */
export function checkCallToolResult(value: unknown): { ok: true; result: CallToolResult } | { ok: false; problem: string } {
  if (!isPlainObject(value)) return { ok: false, problem: "the result is not an object" };
  const content = value.content;
  if (!Array.isArray(content)) return { ok: false, problem: "content is not an array" };
  for (const block of content) {
    const problem = contentProblem(block);
    if (problem !== undefined) return { ok: false, problem };
  }
  if (value.structuredContent !== undefined && !isPlainObject(value.structuredContent)) return { ok: false, problem: "structuredContent is not an object" };
  if (value.isError !== undefined && typeof value.isError !== "boolean") return { ok: false, problem: "isError is not a boolean" };
  if (value._meta !== undefined && !isPlainObject(value._meta)) return { ok: false, problem: "_meta is not an object" };
  if ("resultType" in value) {
    const { resultType: _dropped, ...rest } = value;
    return { ok: true, result: rest as CallToolResult };
  }
  return { ok: true, result: value as CallToolResult };
}

export class RawToolCalls {
  private next = 0;
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly write: (line: string) => Promise<void>) {}

  get inFlight(): number {
    return this.pending.size;
  }

  /** A parsed stdout message: true when it answers one of our calls (the SDK client must not see it). */
  intercept(message: unknown): boolean {
    if (!isPlainObject(message) || "method" in message) return false;
    const id = message.id;
    if (typeof id !== "string" || !id.startsWith(RAW_ID_PREFIX)) return false;
    const pending = this.pending.get(id);
    // A late answer to a call that timed out or was cancelled is dropped, as the SDK drops it.
    if (pending === undefined) return true;
    this.pending.delete(id);
    const error = message.error;
    if (isPlainObject(error)) {
      pending.reject(ProtocolError.fromError(typeof error.code === "number" ? error.code : -32603, typeof error.message === "string" ? error.message : "Unknown error", error.data));
      return true;
    }
    const checked = checkCallToolResult(message.result);
    if (checked.ok) pending.resolve(checked.result);
    else pending.reject(new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${checked.problem}`, { method: "tools/call" }));
    return true;
  }

  call(tool: string, args: Record<string, unknown>, options: RawCallOptions): Promise<CallToolResult> {
    const signal = options.signal;
    if (signal?.aborted === true) return Promise.reject(signal.reason instanceof Error ? signal.reason : new SdkError(SdkErrorCode.RequestTimeout, String(signal.reason)));
    this.next += 1;
    const id = `${RAW_ID_PREFIX}${this.next}`;
    const line = `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${JSON.stringify(args)}}}\n`;
    return new Promise<CallToolResult>((resolve, reject) => {
      const write = this.write;
      const pending = this.pending;
      const timer = setTimeout(() => {
        done();
        cancel(`Request timed out after ${options.timeout}ms`);
        reject(new SdkError(SdkErrorCode.RequestTimeout, "Request timed out", { timeout: options.timeout }));
      }, options.timeout);
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        pending.delete(id);
      }
      function cancel(reason: string): void {
        void write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"${id}","reason":${JSON.stringify(reason)}}}\n`).catch(() => undefined);
      }
      function onAbort(): void {
        done();
        const reason: unknown = signal?.reason;
        cancel(String(reason instanceof Error ? reason.message : reason));
        reject(reason instanceof Error ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason)));
      }
      pending.set(id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      write(line).catch((error: unknown) => {
        if (!pending.has(id)) return;
        done();
        reject(new SdkError(SdkErrorCode.SendFailed, `Failed to send the request: ${error instanceof Error ? error.message : String(error)}`));
      });
    });
  }

  /** The connection ended: every call in flight fails as the SDK fails its requests then. */
  failAll(): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const call of pending) call.reject(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"));
  }
}
