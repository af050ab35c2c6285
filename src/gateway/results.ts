import type { CallToolResult } from "@modelcontextprotocol/server";

/** Uint8Array values travel as base64, not as index-keyed objects. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64"), length: value.length };
  return value;
}

/** A gateway tool's answer: JSON text for every client, the same object as structuredContent. */
export function jsonResult(value: Record<string, unknown>, isError = false): CallToolResult {
  const plain = JSON.parse(JSON.stringify(value, replacer)) as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(plain, null, 2) }], structuredContent: plain, ...(isError ? { isError: true } : {}) };
}

export function textResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

/** A failure the client's model should read and act on (bad arguments, unknown toolset, …). */
export function errorResult(message: string, code: string): CallToolResult {
  return { content: [{ type: "text", text: `${message} (${code})` }], isError: true };
}
