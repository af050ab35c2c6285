/**
 * Text that came from outside mcpvm (config files, MCP servers, guest code) is shown to a person
 * through here. Escape sequences could repaint the terminal: erase the line that says which URL a
 * token goes to, clear the screen, or draw a fake prompt. Bidi overrides can reorder what is shown.
 * So every C0/C1 control (except newline and tab where a caller allows them), DEL and every bidi
 * or invisible formatting character is replaced by a visible escape such as `\x1b` or `\u202e`.
 * `--json` output never goes through here: JSON.stringify already escapes controls.
 */

// The control characters are the point of this pattern.
// eslint-disable-next-line no-control-regex
const UNSAFE_INLINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_MULTILINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  if (char === "\t") return "\\t";
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** One line of display text: names, URLs, env names, descriptions. Newlines are escaped too. */
export function displayInline(text: string): string {
  return text.replace(UNSAFE_INLINE, escapeChar);
}

/** Multi-line display text (tool output, guest logs): newlines and tabs stay, everything else is escaped. */
export function displayBlock(text: string): string {
  return text.replace(UNSAFE_MULTILINE, escapeChar);
}

/** True when the text holds anything `displayInline` would escape (for schema-level refusals). */
export function hasUnsafeDisplayChars(text: string): boolean {
  return new RegExp(UNSAFE_INLINE.source).test(text);
}
