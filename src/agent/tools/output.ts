import type { McpvmHost } from "../../host/index.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";

/** Characters of JSON a single tool result may put into the model's context. */
export const MAX_TOOL_OUTPUT_CHARS = 16_000;

export interface ToolFailure {
  readonly error: { readonly code: string; readonly message: string };
}

/**
 * Everything the model receives is scrubbed of secrets and host paths, then capped: a result
 * larger than the cap is replaced by a preview that says how to get less.
 */
export function forModel(host: McpvmHost, value: unknown, max = MAX_TOOL_OUTPUT_CHARS): unknown {
  const redacted = scrubStrings(host, host.redactor.redactValue(value));
  const text = JSON.stringify(redacted) ?? "null";
  if (text.length <= max) return redacted;
  const answer = (preview: string) => ({
    truncated: true,
    totalChars: text.length,
    preview,
    note: `Output cut to ${preview.length} of ${text.length} characters. Return less (filter, count or summarise inside the script).`,
  });
  // The preview is JSON inside a JSON string: its quotes and backslashes are escaped again, so a
  // max-character slice could reach the model as half as much again. Shrink until the whole answer fits.
  let preview = text.slice(0, max);
  for (let over = size(answer(preview)) - max; over > 0; over = size(answer(preview)) - max) preview = preview.slice(0, Math.max(0, preview.length - over));
  return answer(preview);
}

function size(value: unknown): number {
  return (JSON.stringify(value) ?? "null").length;
}

export function failure(host: McpvmHost, error: unknown): ToolFailure {
  const code = isMcpvmError(error) ? error.code : "INTERNAL";
  return { error: { code, message: host.stripHostPaths(host.redactor.redact(errorMessage(error))) } };
}

function scrubStrings(host: McpvmHost, value: unknown): unknown {
  if (typeof value === "string") return host.stripHostPaths(value);
  if (Array.isArray(value)) return value.map((v) => scrubStrings(host, v));
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubStrings(host, v)]));
  }
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  return value;
}

/** Runs a tool body; any failure becomes a `{ error: { code, message } }` result the model can act on. */
export async function guardedTool(host: McpvmHost, body: () => Promise<unknown>): Promise<unknown> {
  try {
    return forModel(host, await body());
  } catch (error) {
    return failure(host, error);
  }
}
