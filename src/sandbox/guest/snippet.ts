/**
 * The offending line of a guest script with a caret under a column, for syntax and runtime errors.
 * Pure and free of the parser (result building imports it on every run).
 */

/** Lines wider than this are cut around the column, so the caret stays on screen. */
const SNIPPET_WIDTH = 100;

/**
 * The line of `code` at `line` with a caret under `column`:
 * ```
 *   3 | const c = a +* b;
 *     |              ^
 * ```
 * Tabs are shown as one space so the caret stays aligned. Undefined when the line does not exist.
 */
export function sourceSnippet(code: string, line: number, column: number): string | undefined {
  const text = code.split(/\r?\n|\r/)[line - 1];
  if (text === undefined) return undefined;
  let shown = text.replace(/\t/g, " ");
  let caret = Math.max(0, Math.min(column - 1, shown.length));
  if (shown.length > SNIPPET_WIDTH) {
    const start = Math.max(0, Math.min(caret - SNIPPET_WIDTH / 2, shown.length - SNIPPET_WIDTH));
    shown = `${start > 0 ? "…" : ""}${shown.slice(start, start + SNIPPET_WIDTH)}${start + SNIPPET_WIDTH < text.length ? "…" : ""}`;
    caret = caret - start + (start > 0 ? 1 : 0);
  }
  const gutter = String(line);
  return `${gutter} | ${shown}\n${" ".repeat(gutter.length)} | ${" ".repeat(caret)}^`;
}
