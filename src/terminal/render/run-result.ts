import type { RunResult } from "../../sandbox/types.js";
import type { Colours } from "../io.js";

/** The result value as a person wants to read it: strings raw, everything else as indented JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v), 2) ?? String(value);
}

export function formatLogs(result: RunResult, colours: Colours): string[] {
  return result.logs.map((entry) => {
    if (entry.level === "log" || entry.level === "info") return entry.message;
    const tag = entry.level === "error" ? colours.red(entry.level) : entry.level === "warn" ? colours.yellow(entry.level) : colours.dim(entry.level);
    return `${tag} ${entry.message}`;
  });
}

export function formatRunError(result: RunResult & { ok: false }, colours: Colours): string {
  const { error } = result;
  const where = error.line !== undefined ? ` at line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ""}` : "";
  // A host function's own code (FS_OUTSIDE_BASE, MCP_TOOL_ERROR, …) says more than HOST_FUNCTION_ERROR.
  const code = error.code === "HOST_FUNCTION_ERROR" && error.errorCode !== undefined ? error.errorCode : error.code;
  const head = `${colours.red(error.name ?? "Error")} ${colours.dim(`[${code}]`)}${where}: ${error.message}`;
  const stack = error.stack && error.code === "GUEST_ERROR" ? `\n${colours.dim(error.stack)}` : "";
  return head + stack;
}

export function formatStats(result: RunResult): string {
  const s = result.stats;
  return `${s.engine}, ${s.wallMs.toFixed(1)} ms wall, ${s.cpuMs.toFixed(1)} ms cpu, ${s.hostCalls} host call${s.hostCalls === 1 ? "" : "s"}`;
}
