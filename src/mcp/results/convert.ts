import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/client";
import { contentToGuest, sanitizeJson } from "./content.js";
import { contentBytes, jsonBytes, utf8Prefix } from "./size.js";
import type { Conversion, ConvertOptions, GuestValue, TruncatedResult } from "./types.js";

function collapse(values: GuestValue[]): GuestValue {
  if (values.length === 0) return null;
  if (values.length === 1) return values[0] ?? null;
  return values;
}

function truncatedResult(options: ConvertOptions, totalBytes: number, value: GuestValue, omittedItems: number): Conversion {
  const envelope: TruncatedResult = { truncated: true, limitBytes: options.maxResponseBytes, totalBytes, omittedItems, value };
  options.logger?.warn(
    { server: options.server, tool: options.tool, limitBytes: options.maxResponseBytes, totalBytes, omittedItems },
    `MCP result of ${options.server ?? "?"}.${options.tool ?? "?"} truncated: ${totalBytes} bytes is over maxResponseBytes ${options.maxResponseBytes}; to get such results whole, raise mcpServers.${options.server ?? "<name>"}.maxResponseBytes in config.json (bytes)`,
  );
  return { value: { ...envelope }, truncated: true };
}

/**
 * A successful CallToolResult as the guest value: structuredContent when present; otherwise each
 * content item converted (JSON object/array text parsed, image/audio/blobs as Uint8Array), one item
 * as itself, several as an array, none as null. Over maxResponseBytes the result is a
 * TruncatedResult and a warning is logged.
 */
export function toGuestValue(result: CallToolResult, options: ConvertOptions): Conversion {
  const limit = options.maxResponseBytes;
  if (result.structuredContent !== undefined) {
    const totalBytes = jsonBytes(result.structuredContent);
    if (totalBytes <= limit) return { value: sanitizeJson(result.structuredContent), truncated: false };
    return truncatedResult(options, totalBytes, utf8Prefix(JSON.stringify(result.structuredContent), limit), 0);
  }
  const blocks: readonly ContentBlock[] = result.content ?? [];
  const sizes = blocks.map(contentBytes);
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  if (totalBytes <= limit) return { value: collapse(blocks.map(contentToGuest)), truncated: false };

  const kept: GuestValue[] = [];
  let used = 0;
  let index = 0;
  for (; index < blocks.length; index += 1) {
    const size = sizes[index] ?? 0;
    const block = blocks[index];
    if (block === undefined || used + size > limit) break;
    kept.push(contentToGuest(block));
    used += size;
  }
  let omittedItems = blocks.length - index;
  const next = blocks[index];
  if (next?.type === "text" && used < limit) {
    // A cut JSON text is no longer JSON: it stays a string.
    kept.push(utf8Prefix(next.text, limit - used));
    omittedItems -= 1;
  }
  return truncatedResult(options, totalBytes, collapse(kept), omittedItems);
}
