/**
 * Which of many patterns could match a text, found in one pass over the text: each pattern's required literals
 * (regex-literals.ts) are filed under their first one to three characters, and a pattern is a candidate only where one
 * of its literals occurs. Patterns with no literals are candidates for every text. A pattern left out cannot match, so
 * running only the candidates finds exactly what running every pattern finds.
 *
 * Every index (the intent phrases, governance and user-relation vocabularies, each `mayMatch` pattern) files its
 * literals in one shared table, and one pass over a text answers for all of them: the rule families screen the same
 * views of a string one after another, and each used to walk the string again for its own literals.
 */
import { requiredLiterals } from "./regex-literals.js";

/** A literal's key and where its pattern's bit lives among every index's bits. */
type Entry = readonly [literal: string, bit: number];

/** Read-only: the same answer is handed to every index that asks about the same text. */
export type Candidates = ArrayLike<number>;

// A literal's first characters are enough to tell texts apart: any text holding the literal holds them, and fewer
// distinct keys (`send the`, `send your` both `send `) mean fewer to check at each position.
const KEY_LENGTH = 6;
const LONG_TEXT = 4096;
// Recent texts' answers: one string's views (folded, plain, raw — often equal) are asked about by several families in turn.
const RECENT = 4;

const pairSlot = (a: number, b: number, mask: number): number => ((a * 0x9e3) ^ b) & mask;
const tripleSlot = (a: number, b: number, c: number, mask: number): number => ((((a * 0x9e3) ^ b) * 0x3b) ^ c) & mask;

/** The one table every index files its literals in, sized to the keys it holds so that it stays in cache. */
class SharedTable {
  private bits = 0;
  private always = new Uint8Array(0);
  private keys: Array<readonly [string, number]> = [];
  private firsts = new Uint8Array(0x10000);
  private mask = 0;
  private singles: Array<Entry[] | undefined> = [];
  private pairs: Array<Entry[] | undefined> = [];
  private triples: Array<Entry[] | undefined> = [];
  private recent: Array<readonly [string, Uint8Array]> = [];
  private nextRecent = 0;

  /** Files one index's patterns; returns where its bits start. */
  register(literals: ReadonlyArray<readonly string[] | undefined>): number {
    const offset = this.bits;
    this.bits += literals.length;
    const always = new Uint8Array(this.bits);
    always.set(this.always);
    literals.forEach((list, i) => {
      if (list === undefined) always[offset + i] = 1;
      else for (const key of new Set(list.map((l) => l.slice(0, KEY_LENGTH)))) this.keys.push([key, offset + i]);
    });
    this.always = always;
    this.rebuild();
    return offset;
  }

  private rebuild(): void {
    let slots = 16;
    while (slots < this.keys.length * 2) slots *= 2;
    this.mask = slots - 1;
    this.singles = new Array<Entry[] | undefined>(slots).fill(undefined);
    this.pairs = new Array<Entry[] | undefined>(slots).fill(undefined);
    this.triples = new Array<Entry[] | undefined>(slots).fill(undefined);
    this.firsts = new Uint8Array(0x10000);
    for (const [key, bit] of this.keys) {
      const a = key.charCodeAt(0);
      this.firsts[a] = 1;
      const [table, slot] =
        key.length === 1 ? [this.singles, a & this.mask] : key.length === 2 ? [this.pairs, pairSlot(a, key.charCodeAt(1), this.mask)] : [this.triples, tripleSlot(a, key.charCodeAt(1), key.charCodeAt(2), this.mask)];
      const list = table[slot] ?? [];
      list.push([key, bit]);
      table[slot] = list;
    }
    // Answers computed before this index was filed have no bits for it.
    this.recent = [];
  }

  /** Every index's bits for one text (a pattern's bit is 1 if it could match). */
  pass(text: string): Uint8Array {
    for (const [seen, out] of this.recent) if (seen === text) return out;
    const out = this.always.slice();
    const { firsts, mask, singles, pairs, triples } = this;
    const last = text.length - 1;
    for (let at = 0; at <= last; at++) {
      const a = text.charCodeAt(at);
      if (firsts[a] === 0) continue;
      const one = singles[a & mask];
      if (one !== undefined) for (const [key, bit] of one) if (key.charCodeAt(0) === a) out[bit] = 1;
      if (at + 1 > last) continue;
      const b = text.charCodeAt(at + 1);
      const two = pairs[pairSlot(a, b, mask)];
      if (two !== undefined) for (const [key, bit] of two) if (out[bit] === 0 && text.startsWith(key, at)) out[bit] = 1;
      if (at + 2 > last) continue;
      const three = triples[tripleSlot(a, b, text.charCodeAt(at + 2), mask)];
      if (three !== undefined) for (const [key, bit] of three) if (out[bit] === 0 && text.startsWith(key, at)) out[bit] = 1;
    }
    if (this.recent.length < RECENT) this.recent.push([text, out]);
    else this.recent[this.nextRecent] = [text, out];
    this.nextRecent = (this.nextRecent + 1) % RECENT;
    return out;
  }
}

const shared = new SharedTable();

export class LiteralIndex {
  readonly size: number;
  private readonly offset: number;

  constructor(patterns: readonly RegExp[]) {
    this.size = patterns.length;
    this.offset = shared.register(patterns.map((p) => requiredLiterals(p)));
  }

  /** For each pattern, 1 if it could match `text`, 0 if it cannot. */
  candidates(text: string): Candidates {
    // In a long text nearly every phrase's words occur somewhere and the patterns find their first match early: a pass
    // over all of it would only add to their cost, so every pattern is a candidate.
    if (text.length > LONG_TEXT) return new Uint8Array(this.size).fill(1);
    return shared.pass(text).subarray(this.offset, this.offset + this.size);
  }

  /** Whether the one pattern at `i` could match `text` (the same answer as `candidates(text)[i]`, without a view). */
  has(text: string, i: number): boolean {
    return text.length > LONG_TEXT || shared.pass(text)[this.offset + i] === 1;
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
