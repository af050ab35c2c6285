export const MAX_DESCRIPTION_LENGTH = 2000;

// C0/C1 controls except \n and \t, plus ANSI CSI/OSC sequences (ESC [ … final byte, ESC ] … BEL/ST).
// eslint-disable-next-line no-control-regex -- matching control characters is this regex's job
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is this regex's job
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Line and paragraph separators end a `//` comment in JS; in a JSDoc block they would break the `*` gutter.
const LINE_TERMINATORS = /[\u2028\u2029\r]/g;

/**
 * Make untrusted text (an MCP tool or parameter description) safe to show in a JSDoc block and to
 * the model: strip control and ANSI characters, neutralise comment terminators, cap the length.
 * Auditing looks at the original; this is only what is displayed.
 */
export function sanitizeDescription(text: string, maxLength: number = MAX_DESCRIPTION_LENGTH): string {
  let out = text.replace(ANSI_SEQUENCE, "").replace(LINE_TERMINATORS, "\n").replace(CONTROL, "");
  out = out.replace(/\*\//g, "*\\/");
  if (out.length > maxLength) {
    const cut = maxLength - 1;
    // Do not split a surrogate pair.
    const end = /[\ud800-\udbff]/.test(out.charAt(cut - 1)) ? cut - 1 : cut;
    out = `${out.slice(0, end)}…`;
  }
  return out;
}
