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
  // Bytes are printed so they can be recovered: the whole result as base64, nested ones as "base64:…" (see formatResultNotes).
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  const bytes = (_k: string, v: unknown) => (v instanceof Uint8Array ? `base64:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64")}` : v);
  // JSON.stringify escapes C0 controls but not C1 or bidi characters.
  return displayBlock(JSON.stringify(value, bytes, 2) ?? String(value));
}

/**
 * Lines for stderr after a successful run: what the sandbox changed to return the result (a Map as
 * an object, a function left out, …), how bytes were printed, and a hint when a script that printed
 * nothing returned nothing (usually a missing `return`).
 */
export function formatResultNotes(result: RunResult, colours: Colours): string[] {
  if (!result.ok) return [];
  const notes = (result.notes ?? []).map((note) => displayBlock(note));
  if (result.value === undefined && notes.length === 0 && result.logs.length === 0) {
    notes.push("the script returned nothing; use `return …` to give a result (a script is a function body: its last expression is not returned)");
  }
  if (result.value instanceof Uint8Array) notes.push(`the result is ${result.value.length} bytes, printed as base64; --json gives {"$bytes": "<base64>", "length": n}`);
  else if (containsBytes(result.value)) notes.push('bytes (Uint8Array) in the result are printed as "base64:<base64>"; --json gives {"$bytes": "<base64>", "length": n}');
  return notes.map((note) => `${colours.dim("note:")} ${note}`);
}

function containsBytes(value: unknown, depth = 0): boolean {
  if (value instanceof Uint8Array) return true;
  if (typeof value !== "object" || value === null || depth > 64) return false;
  return Object.values(value).some((item) => containsBytes(item, depth + 1));
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
  const file = error.file !== undefined ? ` of ${displayInline(error.file)}` : "";
  const where = error.line !== undefined ? ` at line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ""}${file}` : "";
  // The thrown error's own code (FS_OUTSIDE_BASE, MCP_TOOL_ERROR, MCP_SERVER_DISABLED, HOST_FUNCTION_NOT_FOUND, …)
  // says more than HOST_FUNCTION_ERROR or GUEST_ERROR.
  const code = (error.code === "HOST_FUNCTION_ERROR" || error.code === "GUEST_ERROR") && error.errorCode !== undefined ? error.errorCode : error.code;
  const head = `${colours.red(displayInline(error.name ?? "Error"))} ${colours.dim(`[${displayInline(code)}]`)}${where}: ${displayBlock(error.message)}`;
  // The stack repeats "Name: message" (Node style) first; the head above already says it.
  const frames = error.stack && error.code === "GUEST_ERROR" ? stackFrames(error.stack, error.name, error.message) : "";
  const stack = frames === "" ? "" : `\n${colours.dim(displayBlock(frames))}`;
  const snippet = error.snippet === undefined ? "" : `\n${displayBlock(error.snippet)}`;
  return head + snippet + stack;
}

function stackFrames(stack: string, name: string | undefined, message: string): string {
  for (const head of [name === undefined ? undefined : `${name}: ${message}`, message]) {
    if (head !== undefined && stack.startsWith(head)) return stack.slice(head.length).replace(/^\n/, "");
  }
  return stack;
}

export function formatStats(result: RunResult): string {
  const s = result.stats;
  return `${s.engine}, ${s.wallMs.toFixed(1)} ms wall, ${s.cpuMs.toFixed(1)} ms cpu, ${s.hostCalls} host call${s.hostCalls === 1 ? "" : "s"}`;
}
