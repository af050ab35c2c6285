import type { SharedCallMessage } from "./quickjs-shared-protocol.js";

/**
 * A shared worker's per-call messages as strings: a host call (worker → main thread), its reply and
 * its live events (main thread → worker). A message of a few fields costs structured clone a walk of
 * its properties on one side and, on the other, a new object built key by key (each key looked up in
 * V8's string table, the object's map found by transitions); a string is copied in one piece.
 * Measured beside object messages in one process: bench/_shared-floor.mjs.
 *
 * Every field a guest chooses (module and function names, the arguments' JSON) may hold any
 * character, so each is either last or preceded by its length; the numbers come first. The worker
 * starts these functions from their source text (quickjs-shared-assets.ts): each references
 * nothing outside its own body.
 */

/** `runId,callId,flags,moduleLength,fnLength:` + module + fn + argsText; flags: 1 listen, 2 live. */
export function encodeSharedCall(runId: number, callId: number, module: string, fn: string, argsText: string, listen: boolean, live: boolean): string {
  return `${runId},${callId},${(listen ? 1 : 0) + (live ? 2 : 0)},${module.length},${fn.length}:${module}${fn}${argsText}`;
}

/**
 * The call `encodeSharedCall` wrote; undefined for text it did not write. The header is read digit
 * by digit: split and Number over its pieces cost 1–2.5 µs a call, most of the decode.
 */
export function decodeSharedCall(text: string): SharedCallMessage | undefined {
  const fields = [0, 0, 0, 0, 0];
  let field = 0;
  let value = 0;
  let digits = 0;
  let at = 0;
  for (; at < text.length && field < 5; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      value = value * 10 + code - 48;
      digits++;
    } else if (digits > 0 && code === (field === 4 ? 58 : 44)) {
      fields[field++] = value;
      value = 0;
      digits = 0;
    } else return undefined;
  }
  const [runId, callId, flags, moduleLength, fnLength] = fields as [number, number, number, number, number];
  const fnAt = at + moduleLength;
  const argsAt = fnAt + fnLength;
  if (field < 5 || argsAt > text.length) return undefined;
  return {
    runId,
    callId,
    module: text.slice(at, fnAt),
    fn: text.slice(fnAt, argsAt),
    argsText: text.slice(argsAt),
    listen: (flags & 1) !== 0,
    live: (flags & 2) !== 0,
  };
}

/** `r` (a reply) or `e` (one of its live events), then `runId,callId:` and the text. */
export function encodeSharedAnswer(type: "reply" | "event", runId: number, callId: number, text: string): string {
  return `${type === "reply" ? "r" : "e"}${runId},${callId}:${text}`;
}

/** What `encodeSharedAnswer` wrote; undefined for text it did not write (its numbers read as decodeSharedCall reads its header). */
export function decodeSharedAnswer(message: string): { readonly type: "reply" | "event"; readonly runId: number; readonly callId: number; readonly text: string } | undefined {
  const kind = message.charCodeAt(0);
  if (kind !== 114 && kind !== 101) return undefined;
  let runId = -1;
  let value = 0;
  let digits = 0;
  for (let at = 1; at < message.length; at++) {
    const code = message.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      value = value * 10 + code - 48;
      digits++;
    } else if (digits > 0 && code === 44 && runId === -1) {
      runId = value;
      value = 0;
      digits = 0;
    } else if (digits > 0 && code === 58 && runId !== -1) {
      return { type: kind === 114 ? "reply" : "event", runId, callId: value, text: message.slice(at + 1) };
    } else return undefined;
  }
  return undefined;
}
