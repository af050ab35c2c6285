import type { GuestErrorInfo } from "../types.js";

/**
 * What one console entry costs of the run's output budget: its JSON framing as every face carries
 * it (`{"level":"log","message":""}` and a separator), not only the message text, so a flood of empty
 * `console.log()` calls is not free. The quickjs worker keeps its own copy of this formula (it is
 * embedded by source text and cannot import); tests/trust/budgets.test.ts checks both engines' totals.
 */
export function logEntryBytes(level: string, message: string): number {
  return Buffer.byteLength(JSON.stringify({ level, message }), "utf8") + 1;
}

/** An error always keeps this much text, even when logs used the whole budget, so it still says what went wrong. */
export const MIN_ERROR_BYTES = 1024;
/** Room kept for the marker that says how much was cut. */
const MARKER_RESERVE = 128;
/** Names are class names; a longer one is an attack on the budget, not information. */
const MAX_NAME_BYTES = 256;
const MAX_SNIPPET_BYTES = 1024;

function bytesOf(text: string | undefined): number {
  return text === undefined ? 0 : Buffer.byteLength(text, "utf8");
}

/** The UTF-8 bytes of an error's text fields: what it costs of the output budget. */
export function errorBytes(error: GuestErrorInfo): number {
  return bytesOf(error.name) + bytesOf(error.message) + bytesOf(error.stack) + bytesOf(error.snippet) + bytesOf(error.errorCode);
}

/** The longest prefix of `text` that is at most `maxBytes` of UTF-8, never splitting a character. */
export function prefixWithinBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  if (text.length * 3 <= maxBytes || bytesOf(text) <= maxBytes) return text;
  const decoded = new TextDecoder().decode(Buffer.from(text.slice(0, maxBytes), "utf8").subarray(0, maxBytes));
  // A character split at the cut decodes as U+FFFD; drop it rather than show a broken character.
  return decoded.endsWith("\uFFFD") && !text.slice(0, decoded.length).endsWith("\uFFFD") ? decoded.slice(0, -1) : decoded;
}

/**
 * `text` cut to about `maxBytes` with a marker saying how many bytes were cut and why, or `text`
 * itself when it fits.
 */
export function cutWithMarker(text: string, maxBytes: number, outputBytes: number): string {
  const total = bytesOf(text);
  if (total <= maxBytes) return text;
  const kept = prefixWithinBytes(text, Math.max(0, Math.floor(maxBytes) - MARKER_RESERVE));
  return `${kept} … [${total - bytesOf(kept)} bytes cut: errors count against the output budget (outputBytes = ${outputBytes})]`;
}

/**
 * The error shrunk to fit `allowance` bytes of the output budget (name, message, stack and snippet
 * together, give or take the markers). The stack repeats `name: message` first; it is rebuilt from
 * the cut name and message so faces that strip that head still can.
 */
export function fitErrorToBudget(error: GuestErrorInfo, allowance: number, outputBytes: number): GuestErrorInfo {
  if (errorBytes(error) <= allowance) return error;
  let room = allowance;
  const name = error.name === undefined ? undefined : cutWithMarker(error.name, Math.min(MAX_NAME_BYTES, room / 8), outputBytes);
  room -= bytesOf(name);
  // The `code` property a guest error carried is guest text as well.
  const errorCode = error.errorCode === undefined ? undefined : cutWithMarker(error.errorCode, Math.min(MAX_NAME_BYTES, room / 8), outputBytes);
  room -= bytesOf(errorCode);
  const snippet = error.snippet === undefined ? undefined : cutWithMarker(error.snippet, Math.min(MAX_SNIPPET_BYTES, room / 4), outputBytes);
  room -= bytesOf(snippet);
  const message = cutWithMarker(error.message, error.stack === undefined ? room : room * 0.4, outputBytes);
  room -= bytesOf(message);
  let stack: string | undefined;
  if (error.stack !== undefined) {
    const frames = framesAfterHead(error.stack, error.name, error.message);
    if (frames === undefined) {
      stack = cutWithMarker(error.stack, room, outputBytes);
    } else {
      const head = name === undefined ? message : `${name}: ${message}`;
      const kept = cutWithMarker(frames, room - bytesOf(head) - 1, outputBytes);
      stack = kept === "" ? head : `${head}\n${kept}`;
    }
  }
  return {
    ...error,
    message,
    ...(name === undefined ? {} : { name }),
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(stack === undefined ? {} : { stack }),
    ...(snippet === undefined ? {} : { snippet }),
  };
}

/** The stack's frames when it starts with the usual `name: message` (or `message`) head; undefined otherwise. */
function framesAfterHead(stack: string, name: string | undefined, message: string): string | undefined {
  for (const head of [name === undefined ? undefined : `${name}: ${message}`, message]) {
    if (head !== undefined && stack.startsWith(head)) return stack.slice(head.length).replace(/^\n/, "");
  }
  return undefined;
}
