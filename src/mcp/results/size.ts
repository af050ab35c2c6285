import type { ContentBlock } from "@modelcontextprotocol/client";

/** Bytes a content item costs: UTF-8 text bytes, decoded binary bytes, else its JSON text. */
export function contentBytes(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return Buffer.byteLength(block.text, "utf8");
    case "image":
    case "audio":
      return Buffer.byteLength(block.data, "base64");
    case "resource": {
      const resource = block.resource;
      if ("text" in resource && typeof resource.text === "string") return Buffer.byteLength(resource.text, "utf8");
      if ("blob" in resource && typeof resource.blob === "string") return Buffer.byteLength(resource.blob, "base64");
      return jsonBytes(resource);
    }
    default:
      return jsonBytes(block);
  }
}

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}

/** The longest prefix of `text` that is at most `maxBytes` UTF-8 bytes, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // 0b10xxxxxx bytes continue a character; back up to the start of the one that does not fit.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString("utf8");
}
