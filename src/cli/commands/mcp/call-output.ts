import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/client";
import { displayBlock, displayInline } from "../../../terminal/display.js";

/**
 * A CallToolResult as a person reads it in a terminal: text content as text, binary content as a
 * one-line summary, structured content as indented JSON when there is no text. Everything here
 * came from a server, so it goes through displayBlock/displayInline: an escape sequence in a
 * result cannot repaint the terminal. `--json` prints the result itself instead.
 */

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return displayBlock(block.text);
    case "image":
    case "audio":
      return `[${block.type} ${displayInline(block.mimeType)}, ${base64Bytes(block.data)} bytes]`;
    case "resource_link":
      return `[link ${displayInline(block.uri)}${block.name === undefined ? "" : ` ${displayInline(block.name)}`}]`;
    case "resource": {
      const resource = block.resource;
      if ("text" in resource && typeof resource.text === "string") return `[resource ${displayInline(resource.uri)}]\n${displayBlock(resource.text)}`;
      const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
      return `[resource ${displayInline(resource.uri)}${resource.mimeType === undefined ? "" : ` ${displayInline(resource.mimeType)}`}, ${base64Bytes(blob)} bytes]`;
    }
    default:
      return displayBlock(JSON.stringify(block));
  }
}

export function renderToolResult(result: CallToolResult): string {
  const blocks = result.content ?? [];
  const parts = blocks.map(blockText);
  const hasText = blocks.some((block) => block.type === "text");
  if (result.structuredContent !== undefined && !hasText) parts.push(displayBlock(JSON.stringify(result.structuredContent, null, 2)));
  return parts.join("\n");
}
