import { isUtf8 } from "node:buffer";
import { eachMatch } from "./match.js";
import { decodeAscii85, decodeBase85, inflated } from "./encoded-bytes.js";
import { findTransformedText } from "./transformed.js";

/**
 * Runs of encoded text (base64, hex, URL, unicode or HTML escapes) that decode to readable text.
 * The decoded text is screened with the same rules by the caller; binary results (hashes, ids)
 * are dropped here because nothing readable hides in them.
 */
export interface DecodedRun {
  readonly encoding: "base64" | "base32" | "ascii85" | "base85" | "hex" | "url" | "unicode-escape" | "html-entity" | "rot13" | "reversed" | "leetspeak" | "caesar" | "atbash" | "rot47" | "binary" | "char-codes" | "octal-escape" | "quoted-printable" | "morse";
  readonly encoded: string;
  readonly decoded: string;
}

const MAX_RUNS = 16;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes as UTF-8 text, or undefined: checked before decoding, since most runs (paths, ids) are not UTF-8 and a thrown decode error costs far more. */
function utf8Text(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

type Candidate = readonly [encoding: DecodedRun["encoding"], pattern: RegExp, decode: (run: string, inflate: boolean) => string | undefined, possible: (text: string) => boolean];

// `possible` is what any match needs (its shortest length, a character it must hold): a cheap test that spares most
// screened strings (file names, ids, short sentences) the pattern itself.
const atLeast = (n: number) => (text: string) => text.length >= n;
const holds = (...marks: string[]) => (text: string) => marks.some((mark) => text.includes(mark));

const CANDIDATES: readonly Candidate[] = [
  ["base64", /[A-Za-z0-9+/_-]{16,}={0,2}/g, decodeBase64, atLeast(16)],
  // Also bytes spaced out as a hex dump writes them ("41 6c 77 61 …"): eight or more, so a MAC address is none.
  ["hex", /(?:\\x[0-9a-fA-F]{2}){6,}|(?:0x[0-9a-fA-F]{2}[\s,]*){6,}|\b(?:[0-9a-fA-F]{2}){8,}\b|\b(?:[0-9a-fA-F]{2}[ ,:]){7,}[0-9a-fA-F]{2}\b/g, decodeHex, atLeast(16)],
  ["url", /(?:%[0-9A-Fa-f]{2}[^%\s]{0,3}){5,}/g, decodeUrl, holds("%")],
  ["unicode-escape", /(?:\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}){3,}/g, decodeUnicodeEscapes, holds("\\u")],
  ["html-entity", /(?:&#(?:x[0-9a-fA-F]{1,6}|[0-9]{1,7});){4,}/gi, decodeHtmlEntities, holds("&#")],
  ["base32", /\b[A-Z2-7]{24,}={0,6}/g, decodeBase32, atLeast(24)],
  ["binary", /\b(?:[01]{8}[\s,]?){6,}/g, (run) => bytesToText(run.trim().split(/[\s,]+|(?<=^(?:[01]{8})+)/).flatMap((b) => b.match(/[01]{8}/g) ?? []).map((b) => Number.parseInt(b, 2))), atLeast(48)],
  ["char-codes", /\b(?:\d{2,3}[\s,]+){7,}\d{2,3}\b/g, (run) => bytesToText(run.split(/[\s,]+/).map(Number), true), atLeast(23)],
  ["octal-escape", /(?:\\[0-7]{3} ?){6,}/g, (run) => bytesToText((run.match(/[0-7]{3}/g) ?? []).map((o) => Number.parseInt(o, 8))), holds("\\")],
  ["quoted-printable", /(?:[^\s=]{0,30}=[0-9A-F]{2}){4,}[^\s=]{0,30}/g, (run) => bytesToText([...Buffer.from(run.replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))), "latin1")]), holds("=")],
  // Percent-encoding with whole words between the escapes ("Forward%20every%20email…").
  ["url", /(?:[^\s%]{0,40}%[0-9A-Fa-f]{2}){3,}[^\s%]{0,40}/g, decodeUrl, holds("%")],
  // The 85-character alphabets: runs of 20 or more without a space; most such runs (ids, paths) fail to decode to text.
  ["ascii85", /<~[!-uz\s]{10,}?~>|[!-uz]{20,}/g, (run, inflate) => bytesText(decodeAscii85(run.replace(/\s+/g, "")), inflate), atLeast(20)],
  ["base85", /[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{20,}/g, (run, inflate) => bytesText(decodeBase85(run), inflate), atLeast(20)],
];

/**
 * What a compressed stream that inflates past the screening limits decodes to: its text past the limit is never read,
 * so a sentence hidden behind padding would pass unseen; the stream itself is reported instead (text-audit.ts).
 */
export const UNSCREENED_STREAM = "(a compressed stream that inflates past what is screened)";

/** Decoded bytes as text: UTF-8 as they are, or (with `inflate`) a zlib/gzip stream inside them inflated first. */
function bytesText(bytes: Uint8Array | undefined, inflate: boolean): string | undefined {
  if (bytes === undefined) return undefined;
  const text = utf8Text(bytes);
  if (text !== undefined || !inflate) return text;
  const inner = inflated(bytes);
  if (inner === "too-large") return UNSCREENED_STREAM;
  return inner === undefined ? undefined : utf8Text(inner);
}

/**
 * `inflate`: whether a compressed stream in a run is inflated, true for text as written. Text that was itself decoded
 * passes false: inflating multiplies text up to MAX_INFLATED from a few dozen characters, and inflating again inside
 * what was inflated multiplied that again (a 15 KB description screened as 4 MB), where every other decoder keeps the
 * screened text within the input's size.
 */
export function findEncodedRuns(text: string, inflate = true): DecodedRun[] {
  const runs: DecodedRun[] = [...findTransformedText(text)];
  for (const [encoding, pattern, decode, possible] of CANDIDATES) {
    if (!possible(text)) continue;
    let full = false;
    // Not matchAll, which copies the pattern for every string screened; the decoders run patterns of their own.
    eachMatch(pattern, text, (m) => {
      full = runs.length >= MAX_RUNS;
      if (full) return true;
      const decoded = unwrapLayers(decode(m[0], inflate), inflate);
      if (decoded !== undefined && isReadable(decoded)) runs.push({ encoding, encoded: m[0], decoded });
      return false;
    });
    if (full) return runs;
  }
  return runs;
}

/**
 * A payload split over several fields ("Part A: …" in the description, "Part B: …" in a parameter):
 * fragments that do not decode on their own are joined in the order the fields are listed, two
 * or three at a time, and decoded. Bounded: at most MAX_FRAGMENTS fragments per definition.
 */
const FRAGMENT: ReadonlyArray<readonly [DecodedRun["encoding"], RegExp, (run: string) => string | undefined]> = [
  ["base64", /[A-Za-z0-9+/_-]{8,}={0,2}/g, (run) => decodeBase64(run, true)],
  ["hex", /\b(?:[0-9a-fA-F]{2}){4,}\b/g, decodeHex],
];
const MAX_FRAGMENTS = 24;

export function findSplitRuns(texts: readonly string[]): DecodedRun[] {
  const runs: DecodedRun[] = [];
  for (const [encoding, pattern, decode] of FRAGMENT) {
    const fragments: string[] = [];
    for (const text of texts) {
      for (const m of text.matchAll(pattern)) {
        // Words are not fragments: a fragment carries a digit or mixes cases the way encoded text does.
        if (encoding === "base64" && !/[0-9+/]|[a-z][A-Z]|[A-Z]{2}[a-z]/.test(m[0])) continue;
        fragments.push(m[0]);
        if (fragments.length >= MAX_FRAGMENTS) break;
      }
    }
    for (let i = 0; i + 1 < fragments.length; i++) {
      for (const width of [2, 3]) {
        if (i + width > fragments.length) continue;
        const joined = fragments.slice(i, i + width).join("");
        const decoded = unwrapLayers(decode(joined), true);
        if (decoded !== undefined && isReadable(decoded)) runs.push({ encoding, encoded: joined, decoded });
        if (runs.length >= MAX_RUNS) return runs;
      }
    }
  }
  return runs;
}

const WHOLE_BASE64 = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
const MAX_LAYERS = 4;

/** Layered encodings (base64 of base64, hex of base64…): a result that is itself one base64 run is decoded again. */
function unwrapLayers(decoded: string | undefined, inflate: boolean): string | undefined {
  let current = decoded;
  for (let layer = 0; layer < MAX_LAYERS && current !== undefined && WHOLE_BASE64.test(current.trim()); layer++) {
    const next = decodeBase64(current.trim(), inflate);
    if (next === undefined || !isReadable(next)) break;
    current = next;
  }
  return current;
}

/** Mostly printable, with letters, and not just the input echoed back (short hex words decode to themselves). */
function isReadable(text: string): boolean {
  if (text.length < 6) return false;
  const printable = [...text].filter((ch) => /[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\t]/u.test(ch)).length;
  return printable / [...text].length >= 0.9 && /\p{L}{3,}/u.test(text) && /[\s\p{P}]/u.test(text);
}

function decodeBase64(run: string, inflate: boolean): string | undefined {
  const normalised = run.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (normalised.length % 4 === 1) return undefined;
  // Written backwards ("reverse the string, then base64-decode"): tried when the run read forwards is no text.
  return bytesText(Buffer.from(normalised, "base64"), inflate) ?? bytesText(Buffer.from([...normalised].reverse().join(""), "base64"), inflate);
}

function decodeHex(run: string): string | undefined {
  const digits = run.replace(/\\x|0x|[\s,:]/gi, "");
  if (digits.length % 2 !== 0) return undefined;
  return utf8Text(Buffer.from(digits, "hex"));
}

function decodeUrl(run: string): string | undefined {
  try {
    return decodeURIComponent(run);
  } catch {
    return undefined;
  }
}

function fromCodePoint(hex: string, radix: number): string {
  const cp = Number.parseInt(hex, radix);
  return cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
}

function decodeUnicodeEscapes(run: string): string {
  return run.replace(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})/g, (_m, braced: string | undefined, plain: string | undefined) =>
    fromCodePoint(braced ?? plain ?? "0", 16),
  );
}

function decodeHtmlEntities(run: string): string {
  return run.replace(/&#(x?)([0-9a-fA-F]+);/gi, (_m, x: string, digits: string) => fromCodePoint(digits, x === "" ? 10 : 16));
}

/** Byte values (or, with `codePoints`, printable character codes) as UTF-8 text. */
function bytesToText(values: readonly number[], codePoints = false): string | undefined {
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 0 || v > 255)) return undefined;
  if (codePoints) return values.every((v) => v === 10 || (v >= 32 && v < 127)) ? String.fromCharCode(...values) : undefined;
  return utf8Text(Uint8Array.from(values));
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function decodeBase32(run: string): string | undefined {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const ch of run.replace(/=+$/, "")) {
    const index = BASE32.indexOf(ch);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return utf8Text(Uint8Array.from(bytes));
}
