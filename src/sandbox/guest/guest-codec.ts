import type { GuestBase64, GuestBuiltins, GuestCodec } from "./native.js";

/**
 * The value codec of host calls, guest side (part of the modules piece, see bootstrap-source.ts).
 * RUNS INSIDE THE SANDBOX, never on the host: the bootstrap embeds these functions' source text
 * (Function.prototype.toString), so each must not reference anything outside its own body — no
 * imports, no module-level constants.
 *
 * Guest -> host: JSON.stringify runs here, so Proxies, getters and toJSON execute in the guest and
 * the host only ever sees the resulting text. Uint8Array <-> `{ [bytesKey]: base64 }` (`wrapBytes`,
 * from the bootstrap, which encodes results the same way); base64 is a piece the bootstrap compiles only when bytes actually cross.
 */
export function createGuestCodec(
  bytesKey: string,
  base64: () => GuestBase64,
  wrapBytes: (bytes: Uint8Array) => unknown,
  builtins: Pick<GuestBuiltins, "stringify" | "parse" | "keysOf" | "isArray" | "Bytes">,
): GuestCodec {
  // Captured by the bootstrap before any user code ran (this may be made after it has).
  const { stringify, parse, keysOf, isArray, Bytes } = builtins;

  function replacer(_key: string, value: unknown): unknown {
    // `value`, not `this[key]`: reading the holder again would run a guest getter twice.
    return value instanceof Bytes ? wrapBytes(value) : value;
  }

  function reviver(_key: string, value: unknown): unknown {
    if (typeof value === "object" && value !== null && !isArray(value)) {
      const keys = keysOf(value);
      const encoded = (value as Record<string, unknown>)[bytesKey];
      if (keys.length === 1 && keys[0] === bytesKey && typeof encoded === "string") return base64().decode(encoded);
    }
    return value;
  }

  // The reviver runs once per value and more than doubles the parse time of a large reply, so it
  // is skipped for text that cannot hold a bytes marker. The marker starts with U+0000, which JSON
  // text carries only as the escape \u0000 (or raw, where a parser tolerates it).
  const markerStartsWithNul = bytesKey.charCodeAt(0) === 0;
  function mayHoldBytes(text: string): boolean {
    return !markerStartsWithNul || text.indexOf("\\u0000") !== -1 || text.indexOf("\u0000") !== -1;
  }

  return {
    encode: (value) => stringify(value, replacer),
    decode: (text) => (mayHoldBytes(text) ? parse(text, reviver) : parse(text)) as unknown,
    stringify,
    replacer,
  };
}

/** Base64 for Uint8Array (QuickJS has no atob/btoa). Runs inside the sandbox; self-contained. */
export function createGuestBase64(): GuestBase64 {
  const Bytes = Uint8Array;
  const fromCharCode = String.fromCharCode;
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const codes = new Bytes(64);
  const lookup = new Bytes(128).fill(255);
  for (let i = 0; i < 64; i++) {
    codes[i] = alphabet.charCodeAt(i);
    lookup[alphabet.charCodeAt(i)] = i;
  }

  function encode(bytes: Uint8Array): string {
    const out = new Bytes(Math.ceil(bytes.length / 3) * 4);
    let o = 0;
    let i = 0;
    for (; i + 2 < bytes.length; i += 3) {
      const v = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
      out[o++] = codes[(v >> 18) & 63] as number;
      out[o++] = codes[(v >> 12) & 63] as number;
      out[o++] = codes[(v >> 6) & 63] as number;
      out[o++] = codes[v & 63] as number;
    }
    const rest = bytes.length - i;
    if (rest > 0) {
      const v = ((bytes[i] as number) << 16) | (rest === 2 ? (bytes[i + 1] as number) << 8 : 0);
      out[o++] = codes[(v >> 18) & 63] as number;
      out[o++] = codes[(v >> 12) & 63] as number;
      out[o++] = rest === 2 ? (codes[(v >> 6) & 63] as number) : 61;
      out[o++] = 61;
    }
    // fromCharCode over bounded chunks: one argument per byte would overflow the call stack.
    let text = "";
    for (let start = 0; start < out.length; start += 8192) {
      text += fromCharCode(...out.subarray(start, start + 8192));
    }
    return text;
  }

  function decode(text: string): Uint8Array {
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
    const out = new Bytes(Math.floor((end * 3) / 4));
    let bits = 0;
    let acc = 0;
    let o = 0;
    for (let i = 0; i < end; i++) {
      const value = lookup[text.charCodeAt(i) & 127] as number;
      if (value === 255) continue;
      acc = (acc << 6) | value;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[o++] = (acc >> bits) & 255;
      }
    }
    return o === out.length ? out : out.slice(0, o);
  }

  return { encode, decode };
}
