export const MAX_EVIDENCE_LENGTH = 160;

const CONTROL_NAMES: Readonly<Record<string, string>> = { "\u001b": "ESC", "\u009b": "CSI", "\u0007": "BEL" };

function codePoint(ch: string): string {
  return `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

const SHOWN_AS_CODE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- screening invisible and control characters is this regex's job
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0100}-\u{e01ef}]/u;
const TAG_RUN = /[\u{e0000}-\u{e007f}]+/gu;

/**
 * Make untrusted text printable for a person reviewing findings: invisible, bidi and control
 * characters become ⟨U+200B⟩ / ⟨ESC⟩, a run of Unicode tag characters is shown with the ASCII it
 * hides, newlines and tabs become ⏎ and ⇥, and the result is cut to `maxLength` characters.
 */
export function renderEvidence(text: string, maxLength: number = MAX_EVIDENCE_LENGTH): string {
  const withTags = text.replace(TAG_RUN, (run) => `⟨TAG "${decodeTagRun(run)}"⟩`);
  let out = "";
  for (const ch of withTags) {
    if (ch === "\n") out += "⏎";
    else if (ch === "\t") out += "⇥";
    else if (CONTROL_NAMES[ch] !== undefined) out += `⟨${CONTROL_NAMES[ch]}⟩`;
    else if (SHOWN_AS_CODE.test(ch)) out += codePoint(ch);
    else out += ch;
  }
  return truncate(out, maxLength);
}

/** Tag characters U+E0020..U+E007E mirror printable ASCII; anything else in the block shows as `?`. */
export function decodeTagRun(run: string): string {
  let out = "";
  for (const ch of run) {
    const cp = (ch.codePointAt(0) ?? 0) - 0xe0000;
    out += cp >= 0x20 && cp <= 0x7e ? String.fromCharCode(cp) : "";
  }
  return out;
}

/** A bounded excerpt around [start, end) of `text`, rendered printable. */
export function excerpt(text: string, start: number, end: number, maxLength: number = MAX_EVIDENCE_LENGTH): string {
  const context = 40;
  const from = Math.max(0, start - context);
  const to = Math.min(text.length, end + context);
  const body = renderEvidence(text.slice(from, to), Number.MAX_SAFE_INTEGER);
  return truncate(`${from > 0 ? "…" : ""}${body}${to < text.length ? "…" : ""}`, maxLength);
}

function truncate(text: string, maxLength: number): string {
  const chars = [...text];
  if (chars.length <= maxLength) return text;
  return `${chars.slice(0, Math.max(0, maxLength - 1)).join("")}…`;
}
