import { commonShare } from "../common-words.js";
import { renderEvidence } from "../evidence.js";
import { collapseWhitespace } from "../normalise.js";
import type { AuditedTool } from "../types.js";
import { MAX_SCAN } from "./features.js";
import { SCRIPTS } from "./phrase-set.js";
import type { SignalHit } from "./score.js";

/**
 * A free-text parameter, after the tool's first, whose description is a passage of plain prose that dwarfs the tool it
 * belongs to: longer than the tool's own description twice over, four times longer than any other parameter's, never
 * named by the tool, and written as sentences with no code in them. Honest listings explain a parameter at length when
 * it has a format (timestamps, filters, colours, tags: quoted values, identifiers, digits); a slot beside the tool's own
 * inputs that asks the model in sentences for something the tool never mentions is how context and secrets are asked
 * for in every language of the attack sets. Read from the definition's shape and its characters only, so it needs no
 * vocabulary of the language it is written in. Honest tools have such slots too (an issue's body, a review's text), so
 * in a language the phrase sets read it is a sign, not a verdict: it holds only with another sign of intent beside it.
 * In one they cannot read (a Latin-script text with few function words of any covered language, or a script with no
 * vocabulary), nothing else would ever be seen, and the slot holds on its own (score.ts: `unread-slot`).
 */
const MIN_LENGTH = 60;
const OVER_TOOL = 2;
const OVER_SIBLINGS = 4;
// A sentence's end in the scripts the sets use (Latin, CJK full stops, Devanagari danda, Armenian, Ethiopic, Arabic).
const SENTENCE_END = /[.!?。！？।։።؟]/u;
// Quoted values, identifiers, numbers, paths, markup and formats: what an honest parameter's long explanation is made of.
// Apostrophes and hyphens inside words ("yma'r", "sõna-sõnalt", "il-konversazzjoni") are spelling, not code.
// A code character anywhere is enough, so it stands alone: written `\S*[…]\S*`, each start in a long run without one
// scanned to the run's end and back (160 000 letters: 93 s, a parameter's description the listing caps let through).
const CODE_LIKE = /`[^`]*`|"[^"]*"|(?<![\p{L}\p{N}])'[^'\s][^']*'(?![\p{L}\p{N}])|[\d_{}<>=/\\]|[\p{L}\p{N}][.:][\p{L}\p{N}]|\b[A-Z]{2,}\b/u;
// A list of values ("one of: dark-pink, dark-green, …") is a format too: items about as many as the words around them.
const LIST_SEPARATOR = /[,;、，；]/g;
const RUN_END = /\s(?!\s)/gu;
function isList(text: string): boolean {
  const items = text.match(LIST_SEPARATOR)?.length ?? 0;
  // What split(/\s+/) would count, one whitespace run at a time (see collapseWhitespace for why not `\s+`).
  const words = (text.match(RUN_END)?.length ?? 0) + 1;
  return items >= 4 && words >= 8 && items * 2 >= words;
}
// Below this share of one covered language's function words, a Latin-script text is one the phrase sets do not read.
const READ_SHARE = 0.15;
const LATIN = /\p{Script=Latin}/gu;
const LETTER = /\p{L}/gu;

function readable(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  if (latin * 2 >= letters) return commonShare(text) >= READ_SHARE;
  return SCRIPTS.some(([, test]) => test.test(text));
}

// The parameter's name as a whole word of the tool's description; a name of one or two letters is no word a description
// names a parameter by (a slot named "a" is not named by every "a").
function namedIn(text: string, name: string): boolean {
  if (name.length < 3) return false;
  const escaped = name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "u").test(text.toLowerCase());
}

const lengthOf = (text: string): number => collapseWhitespace(text).length;

// Like every screened string, a description is read up to MAX_SCAN (the definition gets an oversized-text finding for
// the rest): past it, a run of one character class is long enough to overflow V8's regexp stack where V8 compiled a
// pattern without its optimisations (tests/mcp/audit/regexp-unoptimized.test.ts), and a longer one tells nothing more.
const screened = (text: string): string => (text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text);

// A free-text slot: declared a string, or untyped (an array of paths or an enum is a format, not a place for prose).
const isTextSlot = (schema: Record<string, unknown>): boolean => schema["type"] === undefined || schema["type"] === "string";

function describedProperties(tool: AuditedTool): Array<readonly [string, string, boolean]> {
  const properties = tool.inputSchema["properties"];
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) return [];
  const out: Array<readonly [string, string, boolean]> = [];
  for (const [name, schema] of Object.entries(properties as Record<string, unknown>)) {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) continue;
    const description = (schema as Record<string, unknown>)["description"];
    if (typeof description === "string") out.push([name, screened(description), isTextSlot(schema as Record<string, unknown>)]);
  }
  return out;
}

export function proseSlot(tool: AuditedTool): SignalHit | undefined {
  const params = describedProperties(tool);
  const own = screened(tool.description ?? "");
  const ownLength = Math.max(lengthOf(own), 1);
  const lengths = params.map(([, description]) => lengthOf(description));
  // The two longest, so each parameter is weighed against its longest sibling in one pass (schemas can be very wide).
  let first = 0;
  let second = 0;
  for (const length of lengths) {
    if (length > first) [first, second] = [length, first];
    else if (length > second) second = length;
  }
  for (const [index, [name, description, text]] of params.entries()) {
    const length = lengths[index] ?? 0;
    // The first parameter is the tool's own input (an image's prompt, a search's query); a slot comes beside it.
    if (index === 0 || !text || length < MIN_LENGTH || length < OVER_TOOL * ownLength) continue;
    const longestSibling = Math.max(1, length === first ? second : first);
    if (length < OVER_SIBLINGS * longestSibling) continue;
    if (namedIn(own, name)) continue;
    if (!SENTENCE_END.test(description) || CODE_LIKE.test(description) || isList(description)) continue;
    return { signal: readable(description) ? "prose-slot" : "unread-slot", evidence: renderEvidence(`${name}: ${description}`) };
  }
  return undefined;
}
