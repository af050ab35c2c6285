import { confirmationReason, describeToolHints, type CallConfirmationRequest } from "../../mcp/service/index.js";
import { displayBlock, displayInline } from "../display.js";

/**
 * What a person sees before a tool call that may change things: server, tool and the full arguments.
 * The tool name and arguments come from a server and guest code: escaped, so they cannot repaint the question.
 */
export function renderCallConfirmation(request: CallConfirmationRequest): string {
  const why = confirmationReason(request.policy);
  const args = displayBlock(JSON.stringify(request.args, null, 2) ?? "{}");
  // Annotations are the server's claims about its own tool: worded as such, never as facts.
  const hints = describeToolHints(request.annotations).map((line) => `  ${line}`);
  return [`MCP call ${displayInline(request.server)}.${displayInline(request.tool)} (${why})`, ...hints, "arguments:", ...args.split("\n").map((l) => `  ${l}`)].join("\n");
}

/** Columns for a confirmation record when stderr is not a terminal (a log file, a CI console). */
export const CONFIRMED_LINE_WIDTH = 120;
// One argument's value in the record: enough to tell two calls apart, never a whole document.
const VALUE_WIDTH = 40;

/**
 * The record of a call that `--yes` confirmed: one line (server.tool and its top-level arguments,
 * each value and then the whole line cut to `width`), so a run of sixty writes leaves sixty lines on
 * stderr, not the sixty question blocks nobody was there to read.
 */
export function renderConfirmedCall(request: CallConfirmationRequest, width = CONFIRMED_LINE_WIDTH): string {
  // Escaped before the cut, so an escape sequence counts for the columns it takes on screen.
  return cut(displayInline(`confirmed (--yes): ${request.server}.${request.tool}${summariseArgs(request.args)}`), Math.max(width, 40));
}

function summariseArgs(args: unknown): string {
  if (args === undefined) return "";
  if (args === null || typeof args !== "object" || Array.isArray(args)) return ` ${cut(JSON.stringify(args), VALUE_WIDTH)}`;
  return Object.entries(args as Record<string, unknown>)
    .map(([key, value]) => ` ${key}=${cut(summariseValue(value), VALUE_WIDTH)}`)
    .join("");
}

function summariseValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? "" : "s"}]`;
  if (value !== null && typeof value === "object") return `{${Object.keys(value).join(",")}}`;
  return JSON.stringify(value) ?? String(value);
}

/** At most `width` characters (code points: an emoji is never split), the last one `…` when cut. */
function cut(text: string, width: number): string {
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join("")}…`;
}

/**
 * What stderr keeps of a call `--yes` confirmed: the one-line record, or with `verbose`
 * (`--log-level debug` or `trace`) the whole block a person would have been asked about.
 */
export function renderYesConfirmation(request: CallConfirmationRequest, options: { readonly verbose: boolean; readonly columns?: number | undefined }): string {
  if (options.verbose) return `${renderCallConfirmation(request)}\nallowed (--yes)`;
  return renderConfirmedCall(request, options.columns ?? CONFIRMED_LINE_WIDTH);
}
