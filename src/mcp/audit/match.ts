import { excerpt } from "./evidence.js";
import { LiteralIndex, mayMatch } from "./literal-index.js";
import type { TextViews } from "./normalise.js";

export interface ViewMatch {
  readonly view: string;
  readonly index: number;
  readonly text: string;
  readonly evidence: string;
}

// A list's patterns filed once in the shared literal index: those whose literals a view lacks are not run on it.
const indexes = new WeakMap<readonly RegExp[], LiteralIndex>();

/** The first match of any pattern in either view (folded first: it sees through look-alikes). */
export function firstMatch(views: TextViews, patterns: readonly RegExp[]): ViewMatch | undefined {
  let index = indexes.get(patterns);
  if (index === undefined) {
    index = new LiteralIndex(patterns);
    indexes.set(patterns, index);
  }
  // An ASCII text's two views are one string: what found nothing in it once finds nothing again.
  for (const view of views.plain === views.folded ? [views.folded] : [views.folded, views.plain]) {
    for (const i of index.listed(view)) {
      const pattern = patterns[i] as RegExp;
      const m = pattern.exec(view);
      if (m !== null) return { view, index: m.index, text: m[0], evidence: excerpt(view, m.index, m.index + m[0].length) };
    }
  }
  return undefined;
}

const MAX_MATCHES = 32;

/**
 * The first `max` matches of a `g` pattern, as `[...text.matchAll(pattern)].slice(0, max)` gives them, on the pattern's own
 * lastIndex: matchAll copies the RegExp first, which costs more than matching a short string. Nothing else runs between
 * the resets, so no other caller sees the pattern mid-way.
 */
export function execAll(pattern: RegExp, text: string, max: number): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  eachMatch(pattern, text, (m) => found.push(m) >= max);
  return found;
}

/**
 * Each match of a `g` pattern in order, as `for (const m of text.matchAll(pattern))` visits them, until `visit` returns
 * true; on the pattern's own lastIndex, as execAll, so `visit` must not run the same pattern.
 */
export function eachMatch(pattern: RegExp, text: string, visit: (m: RegExpExecArray) => boolean): void {
  pattern.lastIndex = 0;
  try {
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (visit(m)) return;
      // An empty match moves on by one character (a whole code point under the u or v flag), as matchAll does.
      if (m[0].length === 0) pattern.lastIndex = advance(text, pattern.lastIndex, /[uv]/.test(pattern.flags));
    }
  } finally {
    pattern.lastIndex = 0;
  }
}

function advance(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? index + 2 : index + 1;
}

/** The first matches of one pattern (which must carry the `g` flag) in one view — bounded, so repetition cannot make the audit quadratic. */
export function allMatches(view: string, pattern: RegExp): ViewMatch[] {
  if (!mayMatch(pattern, view)) return [];
  const found = execAll(pattern, view, MAX_MATCHES);
  return found.map((m) => ({
    view,
    index: m.index,
    text: m[0],
    evidence: excerpt(view, m.index, m.index + m[0].length),
  }));
}

const NEGATION =
  /\b(?:never|not|no|nor|cannot|without|neither)\b|n['’]t\b|\b(?:detects?|detecting|prevents?|preventing|blocks?|blocking|flags?|flagging|warns?|protects? against|guards? against|refuses?|rejects?|attempts? to|tries to|trying to|avoids?|scans? for|checks? for|redacts?|masks?)\b/;

/**
 * Whether the clause holding [index, end) says the opposite ("never asks for your seed phrase")
 * or describes defence ("detects attempts to exfiltrate"). Looks back to the clause start.
 */
export function isNegated(view: string, index: number, end: number): boolean {
  // A consequence opens a clause of its own: "app passwords are not supported, so ask for the account password".
  const clauseStart = Math.max(
    ...[". ", "; ", "! ", "? ", ": "].map((s) => view.lastIndexOf(s, index)),
    ...CONSEQUENCE.map((s) => { const at = view.lastIndexOf(s, index); return at < 0 ? -1 : at + s.length - 1; }),
    index - 80,
  );
  const clause = view.slice(Math.max(0, clauseStart), end);
  const at = index - Math.max(0, clauseStart);
  if (NEGATION.test(clause) && !onlyBareNoBeforeComma(clause, at) && !onlyInOpeningClause(clause, at)) return true;
  // A negation before a list covers the whole list: "do not include … information such as api keys, passwords,
  // credentials, personal data" (the last item is far from the "not").
  const wider = view.slice(Math.max(0, ...[". ", "; ", "! ", "? ", ": "].map((s) => view.lastIndexOf(s, index)), index - 200), index);
  const list = LIST_INTRO.exec(wider);
  return list !== null && /^[^.;!?]*$/.test(wider.slice(list.index)) && /^(?:[\w' -]{1,40}, )+(?:and |or )?$/.test(wider.slice(list.index + list[0].length)) && NEGATION.test(wider.slice(0, list.index));
}

/**
 * A bare "no" in an earlier comma-separated part of the clause does not negate the match: in Portuguese "no" is "in
 * the" ("para ficar no tom certo, cola aqui toda a conversa"), and an English "no" does not reach past its comma.
 */
function onlyBareNoBeforeComma(clause: string, at: number): boolean {
  const comma = clause.lastIndexOf(", ", at);
  if (comma < 0 || NEGATION.test(clause.slice(comma))) return false;
  return !NEGATION.test(clause.slice(0, comma).replace(/\bno\b/g, ""));
}

// "So the customer is not asked twice, include …": a clause of purpose opening the sentence keeps its negation to itself;
// the order after its comma is not negated by it. ("If not provided, the tool will …" stays negated: a condition.)
const SUBORDINATE = /^\W*(?:so(?: that| as)?|in order|to avoid|to make sure|to ensure)\b/;

function onlyInOpeningClause(clause: string, at: number): boolean {
  const comma = clause.lastIndexOf(", ", at);
  return comma >= 0 && SUBORDINATE.test(clause) && !NEGATION.test(clause.slice(comma));
}

const CONSEQUENCE = [", so ", ", therefore ", ", hence ", ", thus ", ", which is why "];

const LIST_INTRO = /\b(?:such as|like|including|e\.g\.,?|for example,?)\s/;

/** The sentence around an index (sentences end at `. `, `! `, `? `, `; `). */
export function sentenceAt(view: string, index: number): { start: number; text: string } {
  const before = Math.max(view.lastIndexOf(". ", index), view.lastIndexOf("! ", index), view.lastIndexOf("? ", index), view.lastIndexOf("; ", index));
  const start = before < 0 ? 0 : before + 2;
  const ends = [". ", "! ", "? ", "; "].map((s) => view.indexOf(s, index)).filter((i) => i >= 0);
  const end = ends.length === 0 ? view.length : Math.min(...ends) + 1;
  return { start, text: view.slice(start, end) };
}
