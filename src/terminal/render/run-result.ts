import type { RunResult } from "../../sandbox/types.js";
import { displayBlock, displayInline } from "../display.js";
import type { Colours } from "../io.js";

// Everything here is text from guest code or MCP tools, printed to a terminal: control characters
// are escaped (an ESC sequence could clear the screen or draw a fake prompt). `--json` output
// does not come through here and stays exact.

/** The result value as a person wants to read it: strings as they are (controls escaped), everything else as indented JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return displayBlock(value);
  // JSON.stringify escapes C0 controls but not C1 or bidi characters.
  return displayBlock(JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v), 2) ?? String(value));
}

export function formatLogs(result: RunResult, colours: Colours): string[] {
  return result.logs.map((entry) => {
    const message = displayBlock(entry.message);
    if (entry.level === "log" || entry.level === "info") return message;
    const tag = entry.level === "error" ? colours.red(entry.level) : entry.level === "warn" ? colours.yellow(entry.level) : colours.dim(entry.level);
    return `${tag} ${message}`;
  });
}

export function formatRunError(result: RunResult & { ok: false }, colours: Colours): string {
  const { error } = result;
  const where = error.line !== undefined ? ` at line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ""}` : "";
  // A host function's own code (FS_OUTSIDE_BASE, MCP_TOOL_ERROR, …) says more than HOST_FUNCTION_ERROR.
  const code = error.code === "HOST_FUNCTION_ERROR" && error.errorCode !== undefined ? error.errorCode : error.code;
  const head = `${colours.red(displayInline(error.name ?? "Error"))} ${colours.dim(`[${displayInline(code)}]`)}${where}: ${displayBlock(error.message)}`;
  const stack = error.stack && error.code === "GUEST_ERROR" ? `\n${colours.dim(displayBlock(error.stack))}` : "";
  return head + stack;
}

export function formatStats(result: RunResult): string {
  const s = result.stats;
  return `${s.engine}, ${s.wallMs.toFixed(1)} ms wall, ${s.cpuMs.toFixed(1)} ms cpu, ${s.hostCalls} host call${s.hostCalls === 1 ? "" : "s"}`;
}
