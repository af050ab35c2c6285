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

/**
 * Which call of its step a line belongs to, when the step has several: they are all shown as the
 * model makes them, and their results follow as each ends, in any order.
 */
export interface CallMark {
  /** 1-based position of the call in its step. */
  readonly position: number;
  readonly name: string;
}

/** A tool call as the transcript shows it; code is shown as code, other arguments as JSON. `#n` from a step's second call on. */
export function renderToolCall(name: string, input: unknown, colours: Colours, position = 1): string {
  const label = position > 1 ? `⚙ #${position} ` : "⚙ ";
  const args = input as { code?: unknown } | undefined;
  if (name === "execute_javascript" && typeof args?.code === "string") {
    return `${colours.cyan(`${label}${name}`)}\n${colours.dim(indent(displayBlock(preview(args.code)), "  │ "))}`;
  }
  return `${colours.cyan(`${label}${displayBlock(name)}`)} ${colours.dim(displayBlock(JSON.stringify(input) ?? ""))}`;
}

/** The line naming the call a result answers, for a step of several calls. */
function resultHeader(mark: CallMark | undefined, prefix: string): string {
  return mark === undefined ? "" : `${prefix}result of #${mark.position} ${displayBlock(mark.name)}:\n`;
}

// Tool output comes from servers and guest code: escaped so it cannot repaint the terminal.
export function renderToolResult(output: unknown, colours: Colours, mark?: CallMark): string {
  const text = typeof output === "string" ? output : (JSON.stringify(output, null, 2) ?? "undefined");
  const failed = typeof output === "object" && output !== null && "error" in output && (output as { error?: unknown }).error !== undefined;
  const prefix = failed ? colours.yellow("  ↳ ") : colours.dim("  ↳ ");
  return resultHeader(mark, prefix) + indent(displayBlock(preview(text)), prefix);
}

/** A call that got no result (its input was refused, or the tool threw): the text the model got instead. */
export function renderToolError(message: string, colours: Colours, mark?: CallMark): string {
  const prefix = colours.yellow("  ↳ ");
  return resultHeader(mark, prefix) + indent(displayBlock(preview(`error: ${message}`)), prefix);
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
