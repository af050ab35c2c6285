import { wrapScriptBody, type WrappedSource } from "./wrapper.js";

/**
 * The wrapped script, without loading the parser, when a quick scan proves the Babel transform
 * (transform.ts) would hand back exactly this: nothing to rewrite, nothing it refuses, no way out of
 * the wrapper. Undefined whenever the scan is not sure; the caller then runs the real transform. Most
 * one-shot scripts (`return 1`, a few `require("host:…")` calls) pass, so `mcpvm run` need not load
 * the 590 KB parser (about a tenth of its start-up).
 *
 * Refused, conservatively: any text `import` or `export` (also inside strings or comments), a `#!`
 * line, `target` (`new.target` is legal in the wrapper function but not at a script's top level),
 * HTML-like comments, a backslash outside a string, template literals, and any `/` that does not
 * start a comment (a regular expression cannot be told from a division without parsing). What is left
 * is scanned for strings, comments and brackets: the brackets must nest and close, so the script
 * cannot close the wrapper function early and run code outside it.
 *
 * A script that passes but does not parse reaches QuickJS, which reports a SyntaxError; the engines
 * then run the real transform to report the parser's own error, as for any other script
 * (run-admission.ts, `settleRun`).
 */
export function wrapPlainScript(code: string): WrappedSource | undefined {
  if (/import|export|target|<!--|-->/.test(code) || code.startsWith("#!")) return undefined;
  const open: number[] = [];
  const length = code.length;
  for (let i = 0; i < length; i++) {
    const char = code.charCodeAt(i);
    switch (char) {
      case QUOTE:
      case APOSTROPHE: {
        i++;
        while (i < length && code.charCodeAt(i) !== char) {
          const inside = code.charCodeAt(i);
          if (inside === NEWLINE || inside === RETURN) return undefined;
          // An escape, or a line continuation: the next character is part of the string.
          if (inside === BACKSLASH) i++;
          i++;
        }
        if (i >= length) return undefined;
        break;
      }
      case SLASH: {
        const next = code.charCodeAt(i + 1);
        if (next === SLASH) {
          while (i < length && !isLineTerminator(code.charCodeAt(i))) i++;
        } else if (next === STAR) {
          const end = code.indexOf("*/", i + 2);
          if (end === -1) return undefined;
          i = end + 1;
        } else {
          return undefined;
        }
        break;
      }
      case BACKTICK:
      case BACKSLASH:
        return undefined;
      case OPEN_PAREN:
      case OPEN_BRACKET:
      case OPEN_BRACE:
        open.push(char);
        break;
      case CLOSE_PAREN:
        if (open.pop() !== OPEN_PAREN) return undefined;
        break;
      case CLOSE_BRACKET:
        if (open.pop() !== OPEN_BRACKET) return undefined;
        break;
      case CLOSE_BRACE:
        if (open.pop() !== OPEN_BRACE) return undefined;
        break;
    }
  }
  if (open.length > 0) return undefined;
  return wrapScriptBody(code, code);
}

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const SLASH = 0x2f;
const STAR = 0x2a;
const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

function isLineTerminator(char: number): boolean {
  return char === NEWLINE || char === RETURN || char === 0x2028 || char === 0x2029;
}
