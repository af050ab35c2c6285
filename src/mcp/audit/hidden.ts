import { decodeTagRun, excerpt, renderEvidence } from "./evidence.js";
import { ANSI_SEQUENCE, BIDI_CONTROL, INVISIBLE } from "./normalise.js";
import type { Hit } from "./rules.js";

const TAG_RUN = /[\u{e0000}-\u{e007f}]+/gu;
const SELECTOR_RUN = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]{4,}/u;
// ZWJ inside an emoji sequence and ZWNJ between letters of scripts that need it are ordinary text.
const BENIGN_JOINER = /(?<=\p{Extended_Pictographic}\ufe0f?)\u200d(?=\p{Extended_Pictographic})|(?<=[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Hebrew}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Telugu}\p{Script=Tamil}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Oriya}\p{Script=Sinhala}])\u200c(?=\p{L})/gu;
// SGR 8 (conceal), cursor movement and erase sequences rewrite what a terminal shows.
// eslint-disable-next-line no-control-regex -- screening invisible and control characters is this regex's job
const ANSI_CONCEALING = /\u001b\[(?:[0-9;]*;)?8(?:;[0-9;]*)?m|\u001b\[[0-9;]*[ABCDEFGHJKSTfsu]/;
// eslint-disable-next-line no-control-regex -- screening invisible and control characters is this regex's job
const OTHER_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009a\u009c-\u009f]/u;
// No look-ahead for the text after the run: on a long blank string that look-ahead made the match quadratic.
const PADDING = /(?:[ \t\u00a0\u2000-\u200a\u3000\u2800]{40,}|(?:[ \t]*\r?\n){8,})/gu;
const MAX_INDENT = 100;
const HIDDEN_MARKUP = /<!--[\s\S]*?-->|^\s*\[\/\/\]:\s*#\s*\(.*\)\s*$/mu;
const MIXED_LATIN = /\p{Script=Latin}/u;
const LOOKALIKE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}]/u;

/** The parts of a string that a person (or a terminal) does not see. */
export interface HiddenPayloads {
  readonly hits: Hit[];
  /** Text hidden from view (decoded tag characters, comment bodies, text after padding) to screen as well. */
  readonly hiddenTexts: string[];
}

// Printable ASCII, tabs and line breaks: no tag, selector, invisible, bidi, escape or control character, no other script.
const PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;

export function findHiddenText(text: string): HiddenPayloads {
  const hits: Hit[] = [];
  const hiddenTexts: string[] = [];
  // Most screened text is plain ASCII: only comments and padding can hide anything in it.
  if (PLAIN_ASCII.test(text)) {
    hiddenAsAscii(text, hits, hiddenTexts);
    return { hits, hiddenTexts };
  }

  for (const m of text.matchAll(TAG_RUN)) {
    const decoded = decodeTagRun(m[0]);
    hiddenTexts.push(decoded);
    hits.push({ rule: "tag-characters", evidence: renderEvidence(`${m[0].length / 2} tag characters decode to "${decoded}"`) });
  }
  const selectors = SELECTOR_RUN.exec(text);
  if (selectors !== null) {
    hits.push({ rule: "variation-selector-run", evidence: excerpt(text, selectors.index, selectors.index + selectors[0].length) });
  }

  const invisible = [...text.replace(BENIGN_JOINER, "").matchAll(INVISIBLE)];
  const first = invisible[0];
  if (first !== undefined) {
    const at = text.indexOf(first[0]);
    hits.push({
      rule: "invisible-characters",
      // Eight or more zero-width characters is a channel (binary smuggling), not stray formatting; soft hyphens are hyphenation hints.
      severity: invisible.filter((m) => m[0] !== "\u00ad").length >= 8 ? "block" : undefined,
      evidence: `${invisible.length}× ${excerpt(text, at, at + 1)}`,
    });
  }
  const bidi = new RegExp(BIDI_CONTROL.source, "u").exec(text);
  if (bidi !== null) hits.push({ rule: "bidi-control", evidence: excerpt(text, bidi.index, bidi.index + 1) });

  // eslint-disable-next-line no-control-regex -- screening invisible and control characters is this regex's job
  const ansi = new RegExp(ANSI_SEQUENCE.source).exec(text) ?? /\u001b/.exec(text);
  if (ansi !== null) {
    hits.push({
      rule: "ansi-escape",
      severity: ANSI_CONCEALING.test(text) ? "block" : undefined,
      evidence: excerpt(text, ansi.index, ansi.index + ansi[0].length),
    });
  }
  const control = OTHER_CONTROL.exec(text);
  if (control !== null) hits.push({ rule: "control-characters", evidence: excerpt(text, control.index, control.index + 1) });

  hiddenAsAscii(text, hits, hiddenTexts);
  const mixed = mixedScriptWord(text);
  if (mixed !== undefined) hits.push({ rule: "mixed-script-word", evidence: mixed });
  return { hits, hiddenTexts };
}

/** What hides in any text, ASCII included: comments and text pushed out of view by padding. */
function hiddenAsAscii(text: string, hits: Hit[], hiddenTexts: string[]): void {
  const markup = HIDDEN_MARKUP.exec(text);
  if (markup !== null) {
    hiddenTexts.push(markup[0]);
    hits.push({ rule: "hidden-markup", evidence: excerpt(text, markup.index, markup.index + markup[0].length) });
  }
  const padding = paddingBeforeText(text);
  if (padding !== null) {
    const after = text.slice(padding.index + padding[0].length);
    hiddenTexts.push(after);
    hits.push({ rule: "padding", evidence: `${padding[0].length} blank characters, then ${renderEvidence(after.trim(), 100)}` });
  }
}

/** The first blank run with visible text after it (runs at the end of the text hide nothing). */
function paddingBeforeText(text: string): RegExpExecArray | null {
  PADDING.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PADDING.exec(text)) !== null) {
    // Indentation is not padding: spaces that open a line and end within a screen's width (a docstring's hanging indent,
    // JSON nested in a docstring) leave the text after them in view. Padding pushes it off screen or far down.
    const indentation = m[0].length <= MAX_INDENT && /^[ \t]+$/u.test(m[0]) && (m.index === 0 || text[m.index - 1] === "\n");
    if (!indentation && /\S/u.test(text.slice(m.index + m[0].length, m.index + m[0].length + 4096))) return m;
    // A blank run followed by more blank of the other kind: keep looking from its end.
    if (m[0].length === 0) PADDING.lastIndex += 1;
  }
  return null;
}

/** The SI prefix micro written with Greek mu (NFKC maps µ to it): μs, μm, μg are units, not look-alikes. */
const SI_MICRO = /^[μµ](?:s|m|g|l|a|v|w|f|h|mol|sec|secs)$/u;

function mixedScriptWord(text: string): string | undefined {
  for (const m of text.normalize("NFKC").matchAll(/[\p{L}\p{M}]+/gu)) {
    const word = m[0];
    if (!MIXED_LATIN.test(word) || !LOOKALIKE_SCRIPT.test(word) || SI_MICRO.test(word)) continue;
    const marked = [...word]
      .map((ch) => (LOOKALIKE_SCRIPT.test(ch) ? `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")} ${ch}⟩` : ch))
      .join("");
    return renderEvidence(marked);
  }
  return undefined;
}
