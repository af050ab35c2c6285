/**
 * Encodings the wave-32 misses used that the first decoders did not know (encoded misses of four writers, v13 and
 * v19–v21: Ascii85 and base85; of three, v17, v18 and v21: zlib or gzip under base64): the 85-character alphabets
 * (Python's `a85encode`/`b85encode`, Adobe's `<~ … ~>`) and a compressed stream inside decoded bytes. The decoded text
 * goes through the same rules as any other decoded run; a run that decodes to no readable text is dropped, so an id or
 * a path made of the same characters costs one failed decode and nothing else.
 */
import { gunzipSync, inflateSync } from "node:zlib";

/** Compressed payloads in a definition are sentences: more than this is not inflated (a zip bomb stays bounded). */
const MAX_INFLATED = 16 * 1024;
/**
 * Nor more than this many times the compressed bytes: prose deflates to about half its size, and even a repetitive
 * paragraph to no less than a tenth; past that the stream is padding or a bomb (deflate reaches 1032 to 1). Without
 * it, a field of sixteen 40-character runs was screened as 256 KB: every field of a listing costing what its
 * longest allowed text (MAX_SCAN) does.
 */
const MAX_RATIO = 32;

/**
 * A zlib or gzip stream inflated; "too-large" when it holds more than the limits above (padding or a bomb: what lies
 * past the limit cannot be screened, so the caller reports the stream itself); undefined when the bytes are neither.
 */
export function inflated(bytes: Uint8Array): Uint8Array | "too-large" | undefined {
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  // A zlib header: deflate method (low nibble 8) and a check value making the first two bytes a multiple of 31.
  const zlib = bytes.length > 2 && ((bytes[0] ?? 0) & 0x0f) === 8 && (((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0)) % 31 === 0;
  if (!gzip && !zlib) return undefined;
  try {
    return (gzip ? gunzipSync : inflateSync)(bytes, { maxOutputLength: Math.min(MAX_INFLATED, MAX_RATIO * bytes.length) });
  } catch (error) {
    return (error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" ? "too-large" : undefined;
  }
}

/** Ascii85 (Adobe/btoa): '!'…'u' in groups of five, 'z' for four zero bytes, optionally inside `<~ … ~>`. */
export function decodeAscii85(run: string): Uint8Array | undefined {
  const body = run.replace(/^<~/, "").replace(/~>$/, "");
  return decode85(body, (ch) => (ch >= 33 && ch <= 117 ? ch - 33 : -1), 117);
}

const B85 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
const B85_INDEX = new Map([...B85].map((ch, i) => [ch.charCodeAt(0), i]));

/** Base85 as Python's b85encode and RFC 1924 write it. */
export function decodeBase85(run: string): Uint8Array | undefined {
  return decode85(run, (ch) => B85_INDEX.get(ch) ?? -1, "~".charCodeAt(0));
}

function decode85(body: string, digit: (code: number) => number, pad: number): Uint8Array | undefined {
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number): boolean => {
    let value = 0;
    for (const d of group) value = value * 85 + d;
    if (value > 0xffffffff) return false;
    for (let i = 0; i < count; i++) out.push((value >>> (24 - 8 * i)) & 0xff);
    group = [];
    return true;
  };
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code === 122 && pad === 117 && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const d = digit(code);
    if (d < 0) return undefined;
    group.push(d);
    if (group.length === 5 && !flush(4)) return undefined;
  }
  if (group.length === 1) return undefined;
  if (group.length > 1) {
    const kept = group.length - 1;
    while (group.length < 5) group.push(digit(pad));
    if (!flush(kept)) return undefined;
  }
  return Uint8Array.from(out);
}
