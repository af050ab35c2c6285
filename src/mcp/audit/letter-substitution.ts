/**
 * The common-word share of a sentence under many letter substitutions at once (every Caesar shift, Atbash), without
 * writing out each substituted sentence. In ASCII text a substitution that maps each letter to a letter of the same case
 * maps words to words one for one (digits, `@`, `$` and `'` stay where they are), so the words of the substituted
 * sentence are the substituted words of the sentence: a word counts for substitution `t` and language `l` when it is
 * `t`'s inverse of one of `l`'s function words. One look-up per word replaces a pass of the text per substitution.
 */
import { isAscii, LISTS, wordsOf } from "./common-words.js";

/** A permutation of the 26 letters: `alphabet[i]` is the letter index `i` becomes. */
export type Alphabet = readonly number[];

const LOWER_A = 97;

function inverseOf(alphabet: Alphabet): number[] {
  const inverse = new Array<number>(26).fill(0);
  alphabet.forEach((to, from) => (inverse[to] = from));
  return inverse;
}

/**
 * A scorer for the given substitutions: for an ASCII sentence, the share `commonShare(substituted, true)` would give
 * under each of them, in their order; undefined for any other text (accents fold to letters only after the
 * substitution, so the shortcut does not hold there and the caller substitutes for real).
 */
export function substitutionScorer(alphabets: readonly Alphabet[]): (sentence: string) => number[] | undefined {
  const languages = LISTS.length;
  // Word → the (substitution, language) cells it counts in.
  const cells = new Map<string, number[]>();
  alphabets.forEach((alphabet, t) => {
    const inverse = inverseOf(alphabet);
    LISTS.forEach(([, list], l) => {
      for (const word of list) {
        if (!/^[a-z]+$/.test(word)) continue;
        const source = String.fromCharCode(...[...word].map((c) => LOWER_A + (inverse[c.charCodeAt(0) - LOWER_A] ?? 0)));
        const list = cells.get(source) ?? [];
        list.push(t * languages + l);
        cells.set(source, list);
      }
    });
  });
  return (sentence) => {
    if (!isAscii(sentence)) return undefined;
    const words = wordsOf(sentence, true);
    const shares = new Array<number>(alphabets.length).fill(0);
    if (words.length < 5) return shares;
    const counts = new Uint32Array(alphabets.length * languages);
    for (const word of words) for (const cell of cells.get(word) ?? []) counts[cell] = (counts[cell] ?? 0) + 1;
    for (let t = 0; t < alphabets.length; t++) {
      let best = 0;
      for (let l = 0; l < languages; l++) best = Math.max(best, (counts[t * languages + l] ?? 0) / words.length);
      shares[t] = best;
    }
    return shares;
  };
}

/** The letters shifted by `k` (ROT13 is `shifted(13)`). */
export const shifted = (k: number): Alphabet => Array.from({ length: 26 }, (_, i) => (i + k) % 26);
/** The alphabet reversed (Atbash). */
export const mirrored: Alphabet = Array.from({ length: 26 }, (_, i) => 25 - i);
