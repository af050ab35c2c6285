import { definitionFields } from "../audit-tool.js";
import { stripHidden } from "../normalise.js";
import { spokenValue } from "../text-audit.js";
import type { AuditedTool } from "../types.js";

/** One sentence of a definition, with where it sits (for the finding's evidence). */
export interface Sentence {
  readonly text: string;
  /** The definition's field it came from (`description`, `schema-description`, `default` …), as findings name it. */
  readonly field: string;
  readonly jsonPath: string;
}

/** Bounds per definition: the model costs ~9 ms a sentence, and a 10 MB description must not become 100 000 sentences. */
export const MAX_SENTENCES = 48;
export const MAX_SENTENCE_CHARS = 320;
/** Characters read from one field: past this the rules' own bound (unscreened remainder) already holds the tool. */
const MAX_FIELD_CHARS = 8_000;

// A sentence ends at . ! ? followed by space, at a line break, or at a Markdown bullet; quotes and brackets may close it.
const BOUNDARY = /(?<=[.!?。！？][)"'’”\]]?)\s+|\s*\n+\s*(?:[-*•]\s+|\d+[.)]\s+)?/u;

/** The sentences of one text, hidden characters removed, each at most MAX_SENTENCE_CHARS (longer ones are cut in pieces). */
export function splitSentences(text: string): string[] {
  const visible = stripHidden(text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text).normalize("NFKC");
  const out: string[] = [];
  for (const raw of visible.split(BOUNDARY)) {
    const s = raw.replace(/^\s*(?:[-*•]|\d+[.)])\s+/u, "").replace(/[#>*_`]+/g, " ").replace(/\s+/g, " ").trim();
    // Fewer than two words carries no instruction ("Optional.", an enum value such as "celsius").
    if (s.split(" ").length < 2 || !/\p{L}/u.test(s)) continue;
    for (let i = 0; i < s.length; i += MAX_SENTENCE_CHARS) out.push(s.slice(i, i + MAX_SENTENCE_CHARS));
  }
  return out;
}

// Frequent English words: a sentence of the English encoder's language carries some of them.
const ENGLISH = new Set("the to of and or for with from by is are be this that it you your any all not does before after when if must should will use call what which".split(" "));

/**
 * The encoder is English-only: text in another language or script becomes out-of-vocabulary pieces that sit
 * near each other whatever they say, so it would be judged by its language, not its meaning. Such sentences
 * are left to the rules (which read 20 languages).
 */
export function isEnglish(sentence: string): boolean {
  const letters = sentence.match(/\p{L}/gu) ?? [];
  if (letters.length === 0 || letters.filter((c) => c <= "z").length / letters.length < 0.9) return false;
  const words = sentence.toLowerCase().split(/[^a-z']+/).filter((w) => w.length > 0);
  const common = words.filter((w) => ENGLISH.has(w)).length;
  return words.length < 10 ? common >= 1 : common >= 2 && common / words.length >= 0.1;
}

/**
 * Every sentence a model reads in a tool definition: its title, description, annotations' strings, parameter titles and
 * descriptions, enum/default/example values, output-schema descriptions (definitionFields: the walk the rules use), in
 * order, distinct, English only (isEnglish), at most MAX_SENTENCES.
 */
export function toolSentences(tool: AuditedTool): Sentence[] {
  const out: Sentence[] = [];
  const seen = new Set<string>();
  for (const field of definitionFields(tool).fields) {
    if (field.kind.kind === "identifier") continue;
    const text = field.kind.kind === "value" ? spokenValue(field.text) : field.text;
    for (const s of splitSentences(text)) {
      if (seen.has(s) || !isEnglish(s)) continue;
      seen.add(s);
      out.push({ text: s, field: field.field, jsonPath: field.jsonPath });
      if (out.length >= MAX_SENTENCES) return out;
    }
  }
  return out;
}

/** The sentences of a server's `instructions`, bounded the same way. */
export function instructionSentences(text: string | undefined): Sentence[] {
  if (text === undefined) return [];
  return [...new Set(splitSentences(text).filter(isEnglish))].slice(0, MAX_SENTENCES).map((s) => ({ text: s, field: "instructions", jsonPath: "$.instructions" }));
}
