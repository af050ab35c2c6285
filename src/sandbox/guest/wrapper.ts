/**
 * How a guest script body becomes one expression that evaluates to an async function (so top-level
 * `return` and `await` work), and how positions in the wrapped code map back to the user's. Pure and
 * free of the parser: the run path and result building import this without loading Babel.
 *
 * Line numbers are preserved exactly (the wrapper opens on the user's first line and closes on a
 * line of its own), so only columns on line 1 move; `mapGuestPosition` and `mapGuestStack` undo that.
 */

/** The wrapper opens on line 1 so that user line N is wrapped line N. */
const WRAPPER_PREFIX = "(async function () {";
/** A newline first, so a trailing `// comment` on the user's last line cannot swallow the brace. */
const WRAPPER_SUFFIX = "\n})";

export interface WrappedSource {
  /** An expression evaluating to the script's async main function. */
  readonly code: string;
  /** How far the wrapper pushed line 1 to the right. */
  readonly firstLineShift: number;
  /** The script as the user wrote it, for snippets in error messages. */
  readonly original: string;
}

export interface SourcePosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** Wraps `body` (the user's script, possibly with its imports rewritten in place) for `original`. */
export function wrapScriptBody(body: string, original: string): WrappedSource {
  return { code: WRAPPER_PREFIX + body + WRAPPER_SUFFIX, firstLineShift: WRAPPER_PREFIX.length, original };
}

/** Converts a position reported by the engine for wrapped code into one in the user's code. */
export function mapGuestPosition(position: SourcePosition, source: WrappedSource): SourcePosition {
  if (position.line !== 1) return position;
  return { line: 1, column: Math.max(1, position.column - source.firstLineShift) };
}

/** Rewrites `filename:1:<col>` frames of a guest stack so columns point into the user's code. */
export function mapGuestStack(stack: string, filename: string, source: WrappedSource): string {
  const pattern = new RegExp(`${framePrefix(filename)}:1:(\\d+)`, "g");
  return stack.replace(pattern, (_match, column: string) => {
    const mapped = mapGuestPosition({ line: 1, column: Number(column) }, source);
    return `${filename}:1:${mapped.column}`;
  });
}

/** The first `filename:line:column` frame of a guest stack, mapped into the user's code. */
export function firstStackPosition(stack: string, filename: string, source: WrappedSource): SourcePosition | undefined {
  const match = new RegExp(`${framePrefix(filename)}:(\\d+):(\\d+)`).exec(stack);
  if (match === null) return undefined;
  return mapGuestPosition({ line: Number(match[1]), column: Number(match[2]) }, source);
}

/**
 * The file name as a whole frame location: a user file `s.js` must not match inside
 * `mcpvm-modules.js` (whose frames would then be taken for the user's line).
 */
function framePrefix(filename: string): string {
  return `(?<=^|[\\s(])${escapeRegExp(filename)}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
