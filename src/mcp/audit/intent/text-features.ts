/**
 * The text model's featurizer (pure): a unit of text (a description, a parameter's description, a value) becomes a
 * sparse vector of hashed word uni-/bi-grams (and, as an option the experiments compared, character n-grams), each
 * tagged with the unit's role. The shipped model's options are written into its weights file (text-model.ts
 * TEXT_MODEL_OPTIONS); the others are kept for the leave-one-set-out script (tests/mcp/audit/scripts/text-model-loso.ts),
 * which compares them.
 */
import { LISTS, wordsOf } from "../common-words.js";
import type { IntentRole } from "./score.js";

export interface TextUnit {
  readonly role: IntentRole;
  readonly text: string;
}

export interface FeaturizeOptions {
  /** Number of hash buckets, a power of two. */
  readonly buckets: number;
  readonly wordBigrams: boolean;
  /** Character n-gram sizes (inclusive range), or none. */
  readonly charN: readonly [number, number] | null;
  /** Also emit a role-free copy of every word feature (shared across roles). */
  readonly shared: boolean;
  /** Read only units written in English (see isEnglishUnit). */
  readonly englishOnly: boolean;
  /** Only a prefix of each unit is read: the audit's time stays bounded on a 10 MB description. */
  readonly maxChars: number;
  /** Each unit its own scored item (else a tool's units are one bag). */
  readonly perUnit: boolean;
  /** Leave out words that carry register rather than meaning ("it", "so", "you"): a unigram of one, a bigram of two. */
  readonly dropFunctionWords: boolean;
  /**
   * Character n-gram sizes for scripts written without spaces between words (Han, kana, Hangul, Thai, Lao, Khmer,
   * Myanmar), read in place of their runs when other languages are read; null reads such a run as one word.
   */
  readonly spacelessGrams: readonly [number, number] | null;
}

export const DEFAULT_OPTIONS: FeaturizeOptions = { buckets: 1 << 18, wordBigrams: true, charN: [3, 5], shared: true, englishOnly: true, maxChars: 2000, perUnit: false, dropFunctionWords: false, spacelessGrams: null };

/** Content words and word pairs of English units (wave 15's choice, kept in wave 16). */
export const CONTENT_OPTIONS: FeaturizeOptions = { ...DEFAULT_OPTIONS, charN: null, dropFunctionWords: true };
/**
 * The same for English units; other languages' units read too, their function words left out, and runs in scripts
 * written without spaces read as character pairs and triples.
 */
export const MULTILINGUAL_OPTIONS: FeaturizeOptions = { ...CONTENT_OPTIONS, englishOnly: false, spacelessGrams: [2, 3] };


/** Units read per tool: real tools have up to ~170; the rest of a hostile schema is left to the rules. */
export const MAX_UNITS = 256;

const URL = /\b(?:https?|wss?|ftp):\/\/\S+|\bwww\.\S+/g;
const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
const DOMAIN = /\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|example|co|ai|xyz|info|biz)\b/g;
const DIGITS = /\d+/g;

/**
 * Lower case, NFKC, and the things that tell who wrote a text rather than what it wants folded to one token each:
 * addresses, e-mail addresses, host names, numbers (the attacks use example.com hosts, real servers their own).
 */
export function normaliseText(text: string, maxChars: number): string {
  return text
    .slice(0, maxChars)
    .normalize("NFKC")
    .toLowerCase()
    .replace(URL, " xurlx ")
    .replace(EMAIL, " xemailx ")
    .replace(DOMAIN, " xhostx ")
    .replace(DIGITS, "0")
    .replace(/\s+/g, " ")
    .trim();
}

const LETTER = /\p{L}/gu;
const LATIN = /\p{Script=Latin}/u;
const NON_ASCII_LETTER = /[^\0-\x7f]/;
const EN = LISTS.find(([lang]) => lang === "en")?.[1] ?? new Set<string>();

/**
 * Whether a unit is English: every benign tool in the material is English, so a reader of other languages learns the
 * language, not the intent (wave 10 found the same); units in other languages are left to the rules.
 */
export function isEnglishUnit(text: string): boolean {
  const letters = text.slice(0, 4000).match(LETTER) ?? [];
  if (letters.length === 0) return false;
  const latin = letters.filter((l) => LATIN.test(l)).length;
  if (latin / letters.length < 0.9) return false;
  const words = wordsOf(text.slice(0, 4000));
  if (words.length < 5) return !letters.some((l) => NON_ASCII_LETTER.test(l));
  const en = words.filter((w) => EN.has(w)).length;
  if (en === 0) return false;
  for (const [lang, list] of LISTS) if (lang !== "en" && words.filter((w) => list.has(w)).length > en) return false;
  return true;
}

/** 32-bit FNV-1a. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// English function words and the pronouns, adverbs and quantifiers of a narrative voice.
const FUNCTION = new Set([
  ...EN,
  ..."a i we he she me my our us so very just also then than there here what which who whom whose how why where was were been being has have had can could would should will shall may might must its it's don't doesn't isn't each every any some many much more most such only even ever really".split(" "),
]);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
// Other languages: marks are part of a word (Devanagari and Thai vowels are marks), and every language's function words
// are left out of a unit that is not English (FUNCTION alone keeps an English unit read exactly as before).
const WORD_MARKS = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)?/gu;
const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const FUNCTION_ANY = new Set([...FUNCTION, ...LISTS.flatMap(([, list]) => [...list])]);

/** Whether the model reads a unit under these options: English only, or any unit with letters. */
export function readsUnit(text: string, options: FeaturizeOptions): boolean {
  if (text.trim().length === 0) return false;
  return options.englishOnly ? isEnglishUnit(text) : /\p{L}/u.test(text);
}

/** A unit's words as the featurizer sees them, and which function words it leaves out. */
function wordsAndFunction(text: string, options: FeaturizeOptions): { words: string[]; fn: ReadonlySet<string> } {
  if (options.englishOnly || options.spacelessGrams === null) return { words: text.match(WORD) ?? [], fn: FUNCTION };
  return { words: text.match(WORD_MARKS) ?? [], fn: isEnglishUnit(text) ? FUNCTION : FUNCTION_ANY };
}

/** The character n-grams of a run in a spaceless script (the whole run when shorter than the smallest size). */
function spacelessGramsOf(run: string, [lo, hi]: readonly [number, number]): string[] {
  const chars = [...run];
  if (chars.length <= lo) return [run];
  const out: string[] = [];
  for (let n = lo; n <= hi; n++) for (let i = 0; i + n <= chars.length; i++) out.push(chars.slice(i, i + n).join(""));
  return out;
}

/** The feature strings of one unit (before hashing): what the model weighs, and what its evidence names. */
export function unitFeatures(unit: TextUnit, options: FeaturizeOptions): string[] {
  const text = normaliseText(unit.text, options.maxChars);
  const out: string[] = [];
  const { words, fn } = wordsAndFunction(text, options);
  const r = unit.role[0] ?? "p";
  const grams = options.englishOnly ? null : options.spacelessGrams;
  const spaceless = (w: string): boolean => grams !== null && SPACELESS.test(w);
  const skip = (w: string): boolean => (options.dropFunctionWords && fn.has(w)) || spaceless(w);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? "";
    if (grams !== null && spaceless(w)) {
      for (const g of spacelessGramsOf(w, grams)) {
        out.push(`${r}:g:${g}`);
        if (options.shared) out.push(`*:g:${g}`);
      }
      continue;
    }
    if (!skip(w)) {
      out.push(`${r}:w:${w}`);
      if (options.shared) out.push(`*:w:${w}`);
    }
    if (options.wordBigrams && i + 1 < words.length && !spaceless(words[i + 1] ?? "") && !(skip(w) && skip(words[i + 1] ?? ""))) {
      const b = `${w} ${words[i + 1] ?? ""}`;
      out.push(`${r}:b:${b}`);
      if (options.shared) out.push(`*:b:${b}`);
    }
  }
  if (options.charN !== null) {
    const padded = ` ${words.join(" ")} `;
    const [lo, hi] = options.charN;
    for (let n = lo; n <= hi; n++) for (let i = 0; i + n <= padded.length; i++) out.push(`*:c:${padded.slice(i, i + n)}`);
  }
  return out;
}

export interface SparseVector {
  readonly index: Int32Array;
  readonly value: Float32Array;
}

/** Hashed, binary, L2-normalised: a long description weighs no more than a short one. */
export function vectorOf(features: readonly string[], buckets: number): SparseVector {
  const seen = new Map<number, number>();
  for (const f of features) {
    const h = hash32(f);
    const bucket = h & (buckets - 1);
    seen.set(bucket, (h & 0x80000000) !== 0 ? -1 : 1);
  }
  const norm = Math.sqrt(seen.size) || 1;
  const index = new Int32Array(seen.size);
  const value = new Float32Array(seen.size);
  let i = 0;
  for (const [b, sign] of [...seen.entries()].sort((x, y) => x[0] - y[0])) {
    index[i] = b;
    value[i] = sign / norm;
    i++;
  }
  return { index, value };
}

/**
 * A text model judges sentences, not labels: a tool whose English text has fewer distinct content words than this is
 * not scored ("Sends mail." read 0.89 from two words; an attack needs a sentence to ask for anything).
 */
export const MIN_CONTENT_WORDS = 5;

/**
 * Distinct content words (function words left out) in the units the model reads; a run in a spaceless script counts
 * one word per two distinct character pairs (a Chinese or Japanese word is mostly two characters).
 */
export function contentWordCount(units: readonly TextUnit[], options: FeaturizeOptions): number {
  const words = new Set<string>();
  const pairs = new Set<string>();
  for (const u of units.slice(0, MAX_UNITS)) {
    if (!readsUnit(u.text, options)) continue;
    const { words: all, fn } = wordsAndFunction(normaliseText(u.text, options.maxChars), options);
    for (const w of all) {
      if (fn.has(w)) continue;
      if (options.englishOnly || options.spacelessGrams === null || !SPACELESS.test(w)) words.add(w);
      else for (const g of spacelessGramsOf(w, [2, 2])) pairs.add(g);
    }
  }
  return words.size + Math.floor(pairs.size / 2);
}

/** The scored items of a tool (one bag, or one per unit) after the language gate; empty when nothing is read. */
export function itemVectors(units: readonly TextUnit[], options: FeaturizeOptions): SparseVector[] {
  const read = units.slice(0, MAX_UNITS).filter((u) => readsUnit(u.text, options));
  if (read.length === 0) return [];
  if (options.perUnit) return read.map((u) => vectorOf(unitFeatures(u, options), options.buckets));
  return [vectorOf(read.flatMap((u) => unitFeatures(u, options)), options.buckets)];
}
