/**
 * Which of many patterns could match a text, found in one pass over the text: each pattern's required literals
 * (regex-literals.ts) are filed under their first one to three characters, and a pattern is a candidate only where one
 * of its literals occurs. Patterns with no literals are candidates for every text. A pattern left out cannot match, so
 * running only the candidates finds exactly what running every pattern finds.
 *
 * Every index (the intent phrases, governance and user-relation vocabularies, each `mayMatch` pattern, the phrase
 * groups) files its literals in one shared table, and one pass over a text answers for all of them: the rule families
 * screen the same views of a string one after another, and each used to walk the string again for its own literals.
 */
import { requiredLiterals } from "./regex-literals.js";

/** A literal's key and its pattern's bit among every index's bits. */
type Entry = readonly [literal: string, bit: number];

/** Read-only: for each pattern of an index, 1 if it could match, 0 if it cannot. */
export type Candidates = ArrayLike<number>;

// A literal's first characters are enough to tell texts apart: any text holding the literal holds them, and fewer
// distinct keys (`send the`, `send your` both `send `) mean fewer to check at each position.
const KEY_LENGTH = 6;
const LONG_TEXT = 4096;
// Recent texts' answers: one string's views (folded, plain, raw — often equal) are asked about by several families in turn.
const RECENT = 4;
// Up to this many bits found, membership is a scan of the list; past it, a set.
const FEW = 16;

const pairSlot = (a: number, b: number, mask: number): number => ((a * 0x9e3) ^ b) & mask;
const tripleSlot = (a: number, b: number, c: number, mask: number): number => ((((a * 0x9e3) ^ b) * 0x3b) ^ c) & mask;

/** The bits of patterns with literals that one text holds (patterns with none are candidates for every text). */
class Pass {
  private lookup: ReadonlySet<number> | undefined;

  constructor(
    readonly text: string,
    readonly found: readonly number[],
  ) {}

  holds(bit: number): boolean {
    if (this.found.length <= FEW) return this.found.includes(bit);
    this.lookup ??= new Set(this.found);
    return this.lookup.has(bit);
  }
}

/** The one table every index files its literals in, sized to the keys it holds so that it stays in cache. */
class SharedTable {
  private bits = 0;
  /** 1 for the bits of patterns with no literals. */
  readonly always: number[] = [];
  private readonly keys: Array<readonly [string, number]> = [];
  private firsts = new Uint8Array(0x10000);
  /** One bit per slot that holds a key, so most positions are passed over without touching the lists. */
  private pairBits = new Uint32Array(1);
  private tripleBits = new Uint32Array(1);
  private mask = 0;
  private singles: Array<Entry[] | undefined> = [];
  private pairs: Array<Entry[] | undefined> = [];
  private triples: Array<Entry[] | undefined> = [];
  /** A bit found in the current pass carries its number: nothing per pass is allocated but the list of bits found. */
  private stamps = new Uint32Array(0);
  private passes = 0;
  private recent: Pass[] = [];
  private nextRecent = 0;

  /** Files one index's patterns; returns where its bits start. */
  register(literals: ReadonlyArray<readonly string[] | undefined>): number {
    const offset = this.bits;
    this.bits += literals.length;
    literals.forEach((list, i) => {
      this.always.push(list === undefined ? 1 : 0);
      if (list !== undefined) for (const key of new Set(list.map((l) => l.slice(0, KEY_LENGTH)))) this.keys.push([key, offset + i]);
    });
    this.rebuild();
    return offset;
  }

  private rebuild(): void {
    // Eight slots a key: the slot bits then pass over most positions, and a slot's list is seldom longer than one.
    let slots = 64;
    while (slots < this.keys.length * 8) slots *= 2;
    const mask = slots - 1;
    this.mask = mask;
    this.singles = new Array<Entry[] | undefined>(slots).fill(undefined);
    this.pairs = new Array<Entry[] | undefined>(slots).fill(undefined);
    this.triples = new Array<Entry[] | undefined>(slots).fill(undefined);
    this.firsts = new Uint8Array(0x10000);
    this.pairBits = new Uint32Array(slots >>> 5);
    this.tripleBits = new Uint32Array(slots >>> 5);
    for (const [key, bit] of this.keys) {
      const a = key.charCodeAt(0);
      this.firsts[a] = 1;
      let table = this.singles;
      let slot = a & mask;
      if (key.length === 2) {
        table = this.pairs;
        slot = pairSlot(a, key.charCodeAt(1), mask);
        this.pairBits[slot >>> 5] = (this.pairBits[slot >>> 5] as number) | (1 << (slot & 31));
      } else if (key.length > 2) {
        table = this.triples;
        slot = tripleSlot(a, key.charCodeAt(1), key.charCodeAt(2), mask);
        this.tripleBits[slot >>> 5] = (this.tripleBits[slot >>> 5] as number) | (1 << (slot & 31));
      }
      const list = table[slot] ?? [];
      list.push([key, bit]);
      table[slot] = list;
    }
    this.stamps = new Uint32Array(this.bits);
    this.passes = 0;
    // Answers found before this index was filed have no bits for it.
    this.recent = [];
  }

  /** The bits one text holds. */
  pass(text: string): Pass {
    for (const done of this.recent) if (done.text === text) return done;
    const { firsts, mask, singles, pairs, triples, pairBits, tripleBits, stamps } = this;
    // Stamps are compared for equality only: after 2^32 - 1 passes they start again from 1 on a cleared table.
    if (this.passes === 0xffffffff) {
      stamps.fill(0);
      this.passes = 0;
    }
    const stamp = ++this.passes;
    const found: number[] = [];
    const last = text.length - 1;
    for (let at = 0; at <= last; at++) {
      const a = text.charCodeAt(at);
      if (firsts[a] === 0) continue;
      const one = singles[a & mask];
      if (one !== undefined) {
        for (const [key, bit] of one) {
          if (stamps[bit] !== stamp && key.charCodeAt(0) === a) {
            stamps[bit] = stamp;
            found.push(bit);
          }
        }
      }
      if (at + 1 > last) continue;
      const b = text.charCodeAt(at + 1);
      const two = pairSlot(a, b, mask);
      if (((pairBits[two >>> 5] as number) & (1 << (two & 31))) !== 0) {
        for (const [key, bit] of pairs[two] as Entry[]) {
          if (stamps[bit] !== stamp && text.startsWith(key, at)) {
            stamps[bit] = stamp;
            found.push(bit);
          }
        }
      }
      if (at + 2 > last) continue;
      const three = tripleSlot(a, b, text.charCodeAt(at + 2), mask);
      if (((tripleBits[three >>> 5] as number) & (1 << (three & 31))) !== 0) {
        for (const [key, bit] of triples[three] as Entry[]) {
          if (stamps[bit] !== stamp && text.startsWith(key, at)) {
            stamps[bit] = stamp;
            found.push(bit);
          }
        }
      }
    }
    const done = new Pass(text, found);
    if (this.recent.length < RECENT) this.recent.push(done);
    else this.recent[this.nextRecent] = done;
    this.nextRecent = (this.nextRecent + 1) % RECENT;
    return done;
  }
}

const shared = new SharedTable();

export class LiteralIndex {
  readonly size: number;
  private readonly offset: number;
  /** This index's patterns with no literals, ascending. */
  readonly always: readonly number[];
  /** `candidates` of a text holding no literal: copied, since `new Array(n).fill(0)` costs several times a copy. */
  private readonly base: readonly number[];

  constructor(patterns: readonly RegExp[]) {
    this.size = patterns.length;
    this.offset = shared.register(patterns.map((p) => requiredLiterals(p)));
    this.always = patterns.map((_, i) => i).filter((i) => shared.always[this.offset + i] === 1);
    this.base = patterns.map((_, i) => shared.always[this.offset + i] ?? 0);
  }

  /** For each pattern, 1 if it could match `text`, 0 if it cannot. */
  candidates(text: string): Candidates {
    // In a long text nearly every phrase's words occur somewhere and the patterns find their first match early: a pass
    // over all of it would only add to their cost, so every pattern is a candidate.
    if (text.length > LONG_TEXT) return this.base.map(() => 1);
    const out = this.base.slice();
    for (const bit of shared.pass(text).found) if (bit >= this.offset && bit < this.offset + this.size) out[bit - this.offset] = 1;
    return out;
  }

  /** Whether the one pattern at `i` could match `text` (the same answer as `candidates(text)[i]`). */
  has(text: string, i: number): boolean {
    return text.length > LONG_TEXT || shared.always[this.offset + i] === 1 || shared.pass(text).holds(this.offset + i);
  }

  /**
   * The patterns that could match any of the texts, ascending: what a loop over every pattern that skips those
   * `candidates` leaves out would visit, without walking the hundreds it skips.
   */
  listed(...texts: string[]): readonly number[] {
    if (texts.some((text) => text.length > LONG_TEXT)) return Array.from({ length: this.size }, (_, i) => i);
    const found: number[] = [];
    for (const text of texts) for (const bit of shared.pass(text).found) if (bit >= this.offset && bit < this.offset + this.size) found.push(bit - this.offset);
    // Most texts hold no literal of most indexes: their answer is the patterns with none.
    if (found.length === 0) return this.always;
    return [...new Set([...this.always, ...found])].sort((x, y) => x - y);
  }
}

const filters = new WeakMap<RegExp, LiteralIndex | null>();

/** Whether one pattern could match `text`: false only when the text holds none of its literals. */
export function mayMatch(pattern: RegExp, text: string): boolean {
  let filter = filters.get(pattern);
  if (filter === undefined) {
    filter = requiredLiterals(pattern) === undefined ? null : new LiteralIndex([pattern]);
    filters.set(pattern, filter);
  }
  return filter === null || filter.has(text, 0);
}
