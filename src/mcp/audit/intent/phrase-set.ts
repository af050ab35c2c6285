/**
 * The intent lexicon's phrases compiled once, with the script each runs on and the literal index that tells which of
 * them could match a view (literal-index.ts); features.ts runs them.
 */
import { LiteralIndex } from "../literal-index.js";
import { LEXICON, type IntentFeature } from "./lexicon.js";

// Each phrase runs only on text holding its script, and Latin phrases only on the folded view:
// English text then never pays for the Devanagari or Hangul phrase sets.
export const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ["cyrillic", /\p{Script=Cyrillic}/u],
  ["han", /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["hangul", /\p{Script=Hangul}/u],
  ["arabic", /\p{Script=Arabic}/u],
  ["devanagari", /\p{Script=Devanagari}/u],
  ["bengali", /\p{Script=Bengali}/u],
  ["thai", /\p{Script=Thai}/u],
  ["hebrew", /\p{Script=Hebrew}/u],
  ["greek", /\p{Script=Greek}/u],
  ["tamil", /\p{Script=Tamil}/u],
  ["telugu", /\p{Script=Telugu}/u],
  ["gujarati", /\p{Script=Gujarati}/u],
  ["gurmukhi", /\p{Script=Gurmukhi}/u],
  ["kannada", /\p{Script=Kannada}/u],
  ["malayalam", /\p{Script=Malayalam}/u],
  ["armenian", /\p{Script=Armenian}/u],
  ["ethiopic", /\p{Script=Ethiopic}/u],
  ["georgian", /\p{Script=Georgian}/u],
];

function scriptOf(source: string): string {
  return SCRIPTS.find(([, test]) => test.test(source))?.[0] ?? "latin";
}

/** Every script a phrase holds: a set written as one alternation over several scripts runs on text of any of them. */
function scriptsOf(source: string): string[] {
  const found = SCRIPTS.filter(([, test]) => test.test(source)).map(([name]) => name);
  return found.length === 0 ? ["latin"] : found;
}

export interface Phrase {
  readonly feature: IntentFeature;
  /** `latin`: matched on the folded view; otherwise on the plain view. */
  readonly script: string;
  readonly scripts: readonly string[];
  readonly pattern: RegExp;
}

// Built with the first definition audited, not when the MCP service loads (every `mcpvm run` with
// the mcp plugin on loads it; most runs audit nothing).
let phrases: readonly Phrase[] | undefined;
export function allPhrases(): readonly Phrase[] {
  phrases ??= Object.entries(LEXICON).flatMap(([feature, sources]) =>
    sources.map((source) => ({ feature: feature as IntentFeature, script: scriptOf(source), scripts: scriptsOf(source), pattern: new RegExp(source.normalize("NFKC"), "u") })),
  );
  return phrases;
}

// Which phrases could match a view, from their literals in one pass (literal-index.ts): a file name runs none of them.
let phraseIndex: LiteralIndex | undefined;
export function phrasesIndex(): LiteralIndex {
  phraseIndex ??= new LiteralIndex(allPhrases().map((p) => p.pattern));
  return phraseIndex;
}
