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

/** The call `encodeSharedCall` wrote; undefined for text it did not write. */
export function decodeSharedCall(text: string): SharedCallMessage | undefined {
  const colon = text.indexOf(":");
  if (colon === -1) return undefined;
  const header = text.slice(0, colon).split(",");
  if (header.length !== 5) return undefined;
  const [runId, callId, flags, moduleLength, fnLength] = header.map(Number) as [number, number, number, number, number];
  const fnAt = colon + 1 + moduleLength;
  const argsAt = fnAt + fnLength;
  if (!(moduleLength >= 0 && fnLength >= 0 && argsAt <= text.length)) return undefined;
  return {
    runId,
    callId,
    module: text.slice(colon + 1, fnAt),
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

/** What `encodeSharedAnswer` wrote; undefined for text it did not write. */
export function decodeSharedAnswer(message: string): { readonly type: "reply" | "event"; readonly runId: number; readonly callId: number; readonly text: string } | undefined {
  const kind = message.charCodeAt(0);
  const comma = message.indexOf(",");
  const colon = message.indexOf(":", comma);
  if ((kind !== 114 && kind !== 101) || comma === -1 || colon === -1) return undefined;
  return { type: kind === 114 ? "reply" : "event", runId: Number(message.slice(1, comma)), callId: Number(message.slice(comma + 1, colon)), text: message.slice(colon + 1) };
}
