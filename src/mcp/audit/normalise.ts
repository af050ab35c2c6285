import { foldConfusables } from "./confusables.js";

export const ANSI_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- screening invisible and control characters is this regex's job
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

export const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
export const TAG_CHARACTER = /[\u{e0000}-\u{e007f}]/gu;
export const VARIATION_SELECTOR = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;
/** A character of a script other than Latin (Common and Inherited marks, digits and punctuation, belong to every script). */
export const NON_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
/** Zero-width and other characters that render as nothing (or as blank filler). */
export const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- screening invisible and control characters is this regex's job
  /[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f\u2800\u3164\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}]/gu;
// eslint-disable-next-line no-control-regex -- screening invisible and control characters is this regex's job
const OTHER_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * Two views of one string that the phrase rules match against. Both drop everything invisible
 * (so `Ignore\u200b previous` reads as `ignore previous`), apply NFKC (fullwidth, ligatures),
 * lower-case and collapse whitespace (so a phrase split over lines still matches).
 * `plain` keeps every script as is — Russian and Chinese rules need it; `folded` also maps
 * look-alike letters and typographic apostrophes to ASCII and drops accents, so Latin-script rules
 * are written once, unaccented.
 */
export interface TextViews {
  readonly plain: string;
  readonly folded: string;
}

// Printable ASCII, tabs and line breaks: nothing hidden to strip, nothing NFKC, NFD or the look-alike table would change.
const PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;

export function stripHidden(text: string): string {
  if (PLAIN_ASCII.test(text)) return text;
  return text
    .replace(ANSI_SEQUENCE, "")
    .replace(TAG_CHARACTER, "")
    .replace(BIDI_CONTROL, "")
    .replace(VARIATION_SELECTOR, "")
    .replace(INVISIBLE, "")
    .replace(OTHER_CONTROL, " ");
}

// One string's views are asked for by several families in turn (the screen, the intent features, each address piece,
// which for a short string is the whole text): the last few are kept. The views depend on the text alone.
const RECENT_VIEWS = 4;
const recentViews: Array<readonly [string, TextViews]> = [];
let nextRecent = 0;

export function textViews(text: string): TextViews {
  for (const [seen, views] of recentViews) if (seen === text) return views;
  const views = Object.freeze(computeViews(text));
  recentViews[nextRecent] = [text, views];
  nextRecent = (nextRecent + 1) % RECENT_VIEWS;
  return views;
}

/** The text as shown: hidden characters dropped, NFKC applied. */
export function visibleText(text: string): string {
  return PLAIN_ASCII.test(text) ? text : stripHidden(text).normalize("NFKC");
}

function computeViews(text: string): TextViews {
  if (PLAIN_ASCII.test(text)) {
    // The look-alike table, NFD and the stroke letters touch nothing in ASCII: both views are the lower-cased text.
    const lower = collapseWhitespace(text.toLowerCase());
    return { plain: lower, folded: lower };
  }
  const visible = stripHidden(text).normalize("NFKC");
  const plain = collapseWhitespace(visible.toLowerCase());
  const folded = collapseWhitespace(
    foldConfusables(visible)
      .toLowerCase()
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      // Latin letters with a stroke have no decomposition: Polish ł, Vietnamese đ, Nordic ø; nor has Turkish dotless ı.
      .replace(/[łđøıə]/gu, (ch) => STROKE_FOLD[ch] ?? ch)
      // The rules write an apostrophe as ASCII ("don't", "l'utilisateur"); typeset text uses U+2019 (or U+2018, U+201B,
      // the modifier letter U+02BC) for the same word, which NFKC leaves alone.
      .replace(/[\u2018\u2019\u201b\u02bc]/gu, "'"),
  );
  return { plain, folded };
}

// Azerbaijani ə has no decomposition either.
const STROKE_FOLD: Readonly<Record<string, string>> = { ł: "l", đ: "d", ø: "o", ı: "i", ə: "e" };

const SPACE_BEFORE_SPACE = /\s(?=\s)/gu;
const SPACE = /\s/gu;

/**
 * Whitespace runs as one space, none at either end. Not `replace(/\s+/g, " ")`: V8 does not always compile a regexp
 * with its optimisations (a long audit process was seen compiling this one without), and unoptimised a greedy `\s+`
 * keeps one backtracking entry per character, so a run of millions overflows the regexp stack (RangeError). Each
 * pattern here consumes one character and keeps nothing.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(SPACE_BEFORE_SPACE, "").replace(SPACE, " ").trim();
}


/** Split `camelCase`, `snake_case` and `kebab-case` identifiers into lower-case words. */
export function identifierWords(name: string): string[] {
  return stripHidden(name)
    .normalize("NFKC")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

// `{{CHAT_LOG}}`, `${systemPrompt}`, `[[tool_results]]`: template slots, whose names say what fills them.
const PLACEHOLDER = /\{\{\s*([A-Za-z][\w.-]{0,60})\s*\}\}|\$\{\s*([A-Za-z][\w.-]{0,60})\s*\}|\[\[\s*([A-Za-z][\w.-]{0,60})\s*\]\]/g;

/**
 * A template's slots read as the words their names are made of: a default of `{{CHAT_LOG}}` that the model is
 * told to expand asks for the chat log as plainly as the words would.
 */
export function speakPlaceholders(text: string): string {
  // Every slot opens with "{" or "[[": a text with neither is returned without running the pattern.
  if (!text.includes("{") && !text.includes("[[")) return text;
  return text.replace(PLACEHOLDER, (slot: string, a?: string, b?: string, c?: string) => {
    const name = a ?? b ?? c ?? "";
    return name.length === 0 ? slot : identifierWords(name).join(" ");
  });
}
