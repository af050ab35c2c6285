import { SERVER_INFO_META_KEY, type CallToolResult } from "@modelcontextprotocol/server";
import { isPlainObject } from "./recognize.js";

/**
 * The wire form of a tools/call result, as the SDK's codecs write it (SDK 2.x, mcp server
 * `projectCallToolResult` and the 2026 `encodeResult`), so a fast-lane answer is the same bytes
 * of JSON-RPC the SDK path sends. The differential test (tests/gateway/fast-lane-differential)
 * holds the two together: an SDK upgrade that changes its encoding fails it.
 */

type Json = Record<string, unknown>;

/** A non-object structuredContent gets a text rendering when there is no text item (both eras). */
function appendTextFallback(result: Json): Json {
  const structured = result.structuredContent;
  if (structured === undefined || isPlainObject(structured)) return result;
  const content = Array.isArray(result.content) ? (result.content as Json[]) : undefined;
  if (content?.some((c) => c.type === "text") ?? false) return result;
  return { ...result, content: [...(content ?? []), { type: "text", text: JSON.stringify(structured) }] };
}

/** Whether an advertised output schema's root is anything but `type: "object"` (SEP-2106; the SDK's own test). */
function nonObjectRoot(schema: unknown): boolean {
  return isPlainObject(schema) && schema.type !== "object";
}

/** 2025 era: non-object structured content (or a non-object advertised schema) is wrapped as { result }. */
export function projectLegacy(result: CallToolResult, outputSchema: unknown): Json {
  const withText = appendTextFallback(result as Json);
  const structured = withText.structuredContent;
  if (structured === undefined) return withText;
  if (isPlainObject(structured) && !(outputSchema !== undefined && nonObjectRoot(outputSchema))) return withText;
  return { ...withText, structuredContent: { result: structured } };
}

/** 2026-07-28: the text fallback, `resultType: "complete"`, and the server's info in `_meta`. */
export function projectModern(result: CallToolResult, serverInfo: { readonly name: string; readonly version: string }): Json {
  const projected = appendTextFallback(result as Json);
  const stamped = projected.resultType === undefined ? { ...projected, resultType: "complete" } : projected;
  const meta = stamped._meta;
  if (meta === undefined) return { ...stamped, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  if (!isPlainObject(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return stamped;
  return { ...stamped, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}
