import { McpvmError } from "../../util/errors.js";

/**
 * The value codec, host side. Values cross the guest boundary as JSON text in both directions;
 * a Uint8Array travels as a one-key object `{ [BYTES_KEY]: "<base64>" }`. The key starts with
 * U+0000 so it cannot clash with names real data uses; a forged marker can only turn the
 * forger's own data into bytes, which it could have sent as bytes anyway.
 *
 * Guest -> host text is produced inside the guest (so Proxies, getters and toJSON run there) and is
 * untrusted here: its nesting depth is checked before parsing, `__proto__`, `constructor` and
 * `prototype` keys are dropped (see util/json.ts), and only plain data comes out.
 */

export const BYTES_KEY = "\u0000bytes";

/** Deeper values are refused: the reviver below recurses once per level. */
export const MAX_NESTING_DEPTH = 512;

export type CodecErrorCode = "VALUE_NOT_SERIALIZABLE" | "VALUE_TOO_DEEP" | "INVALID_JSON";

export class CodecError extends McpvmError<CodecErrorCode> {}

/**
 * JSON text for the guest. Returns undefined for `undefined` (and functions/symbols, as JSON does).
 * Throws CodecError for BigInt, cycles and other values JSON cannot carry.
 */
export function encodeForGuest(value: unknown): string | undefined {
  try {
    // The replacer acts only on a Uint8Array, so a primitive (most trivial replies) skips its call.
    return typeof value === "object" && value !== null ? JSON.stringify(value, bytesReplacer) : JSON.stringify(value);
  } catch (error) {
    throw new CodecError(
      "VALUE_NOT_SERIALIZABLE",
      `The value cannot be sent to the sandbox: it must be JSON data or a Uint8Array (${errorText(error)})`,
      { cause: error },
    );
  }
}

/** Parses guest-produced JSON text into plain host data, restoring Uint8Array values. */
export function decodeFromGuest(text: string, maxDepth: number = MAX_NESTING_DEPTH): unknown {
  const depth = nestingDepth(text);
  if (depth > maxDepth) {
    throw new CodecError(
      "VALUE_TOO_DEEP",
      `The value from the sandbox is nested ${depth} levels deep; at most ${maxDepth} are accepted`,
    );
  }
  try {
    // The reviver (a callback per value) is needed only when the text can hold what it removes or
    // restores; most host-call arguments hold none of these words, and parse several times faster.
    return (NEEDS_REVIVER.test(text) ? JSON.parse(text, safeReviver) : JSON.parse(text)) as unknown;
  } catch (error) {
    throw new CodecError("INVALID_JSON", `The sandbox sent malformed JSON (${errorText(error)})`, { cause: error });
  }
}

/**
 * The deepest array/object nesting in JSON text, counted without parsing (strings are skipped),
 * so a hostile text cannot exhaust the host's stack in JSON.parse's reviver walk.
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) {
      depth--;
    }
  }
  return deepest;
}

/**
 * What safeReviver acts on, as it can appear in JSON text: the bytes marker (U+0000 is always escaped
 * in JSON, as \u0000 in any letter case) and the dropped keys (which JSON may also spell with escapes,
 * so a backslash-u anywhere sends the text the slow way too).
 */
const NEEDS_REVIVER = /\\u|__proto__|constructor|prototype/;

function bytesReplacer(this: unknown, key: string, value: unknown): unknown {
  // `value` has already been through toJSON (a Buffer would arrive as {type, data}); the holder
  // still has the original.
  const original = (this as Record<string, unknown>)[key];
  if (original instanceof Uint8Array) {
    return { [BYTES_KEY]: Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString("base64") };
  }
  return value;
}

function safeReviver(key: string, value: unknown): unknown {
  if (key === "__proto__" || key === "constructor" || key === "prototype") return undefined;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const encoded = (value as Record<string, unknown>)[BYTES_KEY];
    if (keys.length === 1 && typeof encoded === "string") return new Uint8Array(Buffer.from(encoded, "base64"));
  }
  return value;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
