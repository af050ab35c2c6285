/**
 * Which of many patterns could match a text, found in one pass over the text: each pattern's required literals
 * (regex-literals.ts) are filed under their first one or two characters, and a pattern is a candidate only where one of
 * its literals occurs. Patterns with no literals are candidates for every text. A pattern left out cannot match, so
 * running only the candidates finds exactly what running every pattern finds.
 */
import { requiredLiterals } from "./regex-literals.js";

type Entry = readonly [literal: string, pattern: number];

// Three-character keys are hashed into a table; two keys sharing a slot only cost a `startsWith` that fails.
const SLOTS = 0x10000;
const slotOf = (a: number, b: number, c: number): number => ((((a * 0x9e3) ^ b) * 0x3b) ^ c) & (SLOTS - 1);
// A literal's first characters are enough to tell texts apart: any text holding the literal holds them, and fewer
// distinct keys (`send the`, `send your` both `send`) mean fewer to check at each position.
const KEY_LENGTH = 6;
const LONG_TEXT = 4096;

export class LiteralIndex {
  readonly size: number;
  /** Patterns every text is a candidate for (no literal could be told). */
  private readonly always: number[] = [];
  /** Literals of one UTF-16 unit, by that unit. */
  private readonly singles: Array<number[] | undefined> = new Array<number[] | undefined>(SLOTS).fill(undefined);
  /** Literals of two units, by the first. */
  private readonly pairs: Array<Entry[] | undefined> = new Array<Entry[] | undefined>(SLOTS).fill(undefined);
  /** Longer literals, by the slot of their first three units. */
  private readonly triples: Array<Entry[] | undefined> = new Array<Entry[] | undefined>(SLOTS).fill(undefined);

  constructor(patterns: readonly RegExp[]) {
    this.size = patterns.length;
    patterns.forEach((pattern, i) => {
      const literals = requiredLiterals(pattern);
      if (literals === undefined) this.always.push(i);
      else for (const literal of new Set(literals.map((l) => l.slice(0, KEY_LENGTH)))) this.add(literal, i);
    });
  }

  private add(literal: string, pattern: number): void {
    const first = literal.charCodeAt(0);
    if (literal.length === 1) {
      const list = this.singles[first] ?? [];
      list.push(pattern);
      this.singles[first] = list;
      return;
    }
    const table = literal.length === 2 ? this.pairs : this.triples;
    const slot = literal.length === 2 ? first : slotOf(first, literal.charCodeAt(1), literal.charCodeAt(2));
    const list = table[slot] ?? [];
    list.push([literal, pattern]);
    table[slot] = list;
  }

  /** For each pattern, 1 if it could match `text`, 0 if it cannot. */
  candidates(text: string): Uint8Array {
    // In a long text nearly every phrase's words occur somewhere and the patterns find their first match early: a pass
    // over all of it would only add to their cost, so every pattern is a candidate.
    if (text.length > LONG_TEXT) return new Uint8Array(this.size).fill(1);
    const out = new Uint8Array(this.size);
    for (const i of this.always) out[i] = 1;
    const last = text.length - 1;
    for (let at = 0; at <= last; at++) {
      const first = text.charCodeAt(at);
      const singles = this.singles[first];
      if (singles !== undefined) for (const i of singles) out[i] = 1;
      const pairs = this.pairs[first];
      if (pairs !== undefined) for (const [literal, i] of pairs) if (out[i] === 0 && text.startsWith(literal, at)) out[i] = 1;
      if (at + 2 > last) continue;
      const triples = this.triples[slotOf(first, text.charCodeAt(at + 1), text.charCodeAt(at + 2))];
      if (triples !== undefined) for (const [literal, i] of triples) if (out[i] === 0 && text.startsWith(literal, at)) out[i] = 1;
    }
    return out;
  }
}

// A few literals are looked for one by one; many (an alternation of 200 words) through an index of the one pattern.
const FEW = 16;
const filters = new WeakMap<RegExp, ((text: string) => boolean) | null>();

/** Whether one pattern could match `text`: false only when the text holds none of its literals. */
export function mayMatch(pattern: RegExp, text: string): boolean {
  let filter = filters.get(pattern);
  if (filter === undefined) {
    const literals = requiredLiterals(pattern);
    if (literals === undefined) filter = null;
    else if (literals.length <= FEW) filter = (t) => literals.some((literal) => t.includes(literal));
    else {
      const index = new LiteralIndex([pattern]);
      filter = (t) => index.candidates(t)[0] === 1;
    }
    filters.set(pattern, filter);
  }
  return filter === null || text.length > LONG_TEXT || filter(text);
}
