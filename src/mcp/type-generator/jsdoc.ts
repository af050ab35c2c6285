import { sanitizeDescription } from "../sanitise/description.js";
import type { ToolAnnotationsForTypes, ToolForTypes } from "./types.js";

/** The hint words shown to the model, only for hints the server declared. */
export function hintWords(annotations: ToolAnnotationsForTypes | undefined): string[] {
  if (annotations === undefined) return [];
  const words: string[] = [];
  if (annotations.readOnlyHint === true) words.push("read-only");
  // destructiveHint only means something for a tool that writes (MCP spec).
  if (annotations.readOnlyHint !== true && annotations.destructiveHint === true) words.push("destructive");
  if (annotations.readOnlyHint !== true && annotations.destructiveHint === false) words.push("non-destructive");
  if (annotations.idempotentHint === true) words.push("idempotent");
  if (annotations.openWorldHint === true) words.push("open-world");
  return words;
}

/** JSDoc body lines for a tool: sanitised description (or title), hints, and the MCP name when it differs. */
export function toolDocLines(tool: ToolForTypes): string[] {
  const lines: string[] = [];
  const text = tool.description ?? tool.annotations?.title;
  if (text !== undefined && text.trim() !== "") {
    lines.push(...sanitizeDescription(text.trim()).split("\n").map((line) => line.trimEnd()));
  }
  const hints = hintWords(tool.annotations);
  const tags: string[] = [];
  if (hints.length > 0) tags.push(`Hints: ${hints.join(", ")}.`);
  if (tool.originalName !== tool.jsName) {
    tags.push(`@see MCP tool "${sanitizeDescription(tool.originalName, 200).replace(/\s+/g, " ")}"`);
  }
  if (lines.length > 0 && tags.length > 0) lines.push("");
  return [...lines, ...tags];
}

export function renderDocComment(lines: readonly string[], indent: string): string {
  if (lines.length === 0) return "";
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  const body = lines.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`));
  return [`${indent}/**`, ...body, `${indent} */`].join("\n") + "\n";
}
