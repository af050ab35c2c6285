import type { CallToolResult } from "@modelcontextprotocol/client";

export const MAX_ERROR_TEXT_CHARS = 2_000;

/** The readable part of an `isError` result for an error message: its text items, else its JSON. */
export function toolErrorText(result: CallToolResult, maxChars: number = MAX_ERROR_TEXT_CHARS): string {
  const content = result.content ?? [];
  const texts = content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  const text = texts.length > 0 ? texts.join("\n") : content.length > 0 ? JSON.stringify(content) : "(no details given)";
  return text.length > maxChars ? `${text.slice(0, maxChars)}… [${text.length - maxChars} more characters]` : text;
}
