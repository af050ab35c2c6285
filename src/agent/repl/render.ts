import { displayBlock } from "../../terminal/display.js";
import type { Colours } from "../../terminal/io.js";

const PREVIEW_LINES = 24;
const PREVIEW_CHARS = 2_000;

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}

/** At most `PREVIEW_LINES` lines / `PREVIEW_CHARS` characters, saying how much was left out. */
export function preview(text: string): string {
  let cut = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  const lines = cut.split("\n");
  if (lines.length > PREVIEW_LINES) cut = `${lines.slice(0, PREVIEW_LINES).join("\n")}\n… (${lines.length - PREVIEW_LINES} more lines)`;
  return cut;
}

/** A tool call as the transcript shows it; code is shown as code, other arguments as JSON. */
export function renderToolCall(name: string, input: unknown, colours: Colours): string {
  const args = input as { code?: unknown } | undefined;
  if (name === "execute_javascript" && typeof args?.code === "string") {
    return `${colours.cyan(`⚙ ${name}`)}\n${colours.dim(indent(displayBlock(preview(args.code)), "  │ "))}`;
  }
  return `${colours.cyan(`⚙ ${displayBlock(name)}`)} ${colours.dim(displayBlock(JSON.stringify(input) ?? ""))}`;
}

// Tool output comes from servers and guest code: escaped so it cannot repaint the terminal.
export function renderToolResult(output: unknown, colours: Colours): string {
  const text = typeof output === "string" ? output : (JSON.stringify(output, null, 2) ?? "undefined");
  const failed = typeof output === "object" && output !== null && "error" in output && (output as { error?: unknown }).error !== undefined;
  return indent(displayBlock(preview(text)), failed ? colours.yellow("  ↳ ") : colours.dim("  ↳ "));
}

/** A call that got no result (its input was refused, or the tool threw): the text the model got instead. */
export function renderToolError(message: string, colours: Colours): string {
  return indent(displayBlock(preview(`error: ${message}`)), colours.yellow("  ↳ "));
}

/** Splits a slash command's arguments like a shell would: quotes group, backslash escapes. */
export function splitArgs(text: string): string[] {
  const args: string[] = [];
  let current = "";
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === "\\" && i + 1 < text.length) {
      current += text[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) args.push(current);
      current = "";
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}
