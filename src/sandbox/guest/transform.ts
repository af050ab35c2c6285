import { parse } from "@babel/parser";
import type { ImportDeclaration, Node, Statement } from "@babel/types";
import { DYNAMIC_IMPORT_MESSAGE, explainParseError, findDynamicImport, sourceSnippet } from "./syntax-error.js";

/**
 * Turns a guest script body into one expression that evaluates to an async function, so that
 * top-level `return` and `await` work, and rewrites static `import … from "host:x"` into
 * `require("host:x")`. Engine-neutral and pure: both engines evaluate the output as a script.
 *
 * Line numbers are preserved exactly (the wrapper opens on the user's first line and closes on a
 * line of its own, and each import is replaced in place, padded to the lines it occupied), so only
 * columns on line 1 move; `mapGuestPosition` and `mapGuestStack` undo that shift.
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

export interface GuestSyntaxError extends SourcePosition {
  readonly message: string;
  /** The offending line with a caret under the column (see sourceSnippet). */
  readonly snippet?: string;
}

export type TransformResult =
  | { readonly ok: true; readonly source: WrappedSource }
  | { readonly ok: false; readonly error: GuestSyntaxError };

interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function transformGuestSource(code: string): TransformResult {
  let body: Statement[];
  let programNode: Node;
  const replacements: Replacement[] = [];
  try {
    const program = parse(code, {
      // A script with import declarations is parsed as a module, anything else as a sloppy script.
      sourceType: "unambiguous",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      errorRecovery: false,
    }).program;
    body = program.body;
    programNode = program;
    // A `#!` line is legal at the top of a file but not inside the wrapper function.
    if (program.interpreter) {
      replacements.push({ start: program.interpreter.start ?? 0, end: program.interpreter.end ?? 0, text: "" });
    }
  } catch (error) {
    const offset = isRecord(error) && typeof error.pos === "number" ? error.pos : undefined;
    return syntaxError(code, explainParseError(code, babelSyntaxError(error), offset));
  }

  for (const statement of body) {
    if (statement.type === "ImportDeclaration") {
      replacements.push(rewriteImport(code, statement));
      continue;
    }
    if (
      statement.type === "ExportNamedDeclaration" ||
      statement.type === "ExportDefaultDeclaration" ||
      statement.type === "ExportAllDeclaration"
    ) {
      return syntaxError(code, { message: "`export` is not supported in a guest script: give the result with a top-level `return`", ...positionOf(statement) });
    }
  }
  const dynamicImport = findDynamicImport(code, programNode);
  if (dynamicImport !== undefined) return syntaxError(code, { message: DYNAMIC_IMPORT_MESSAGE, ...positionOf(dynamicImport) });

  return {
    ok: true,
    source: {
      code: WRAPPER_PREFIX + applyReplacements(code, replacements) + WRAPPER_SUFFIX,
      firstLineShift: WRAPPER_PREFIX.length,
      original: code,
    },
  };
}

/** Converts a position reported by the engine for wrapped code into one in the user's code. */
export function mapGuestPosition(position: SourcePosition, source: WrappedSource): SourcePosition {
  if (position.line !== 1) return position;
  return { line: 1, column: Math.max(1, position.column - source.firstLineShift) };
}

/** Rewrites `filename:1:<col>` frames of a guest stack so columns point into the user's code. */
export function mapGuestStack(stack: string, filename: string, source: WrappedSource): string {
  const pattern = new RegExp(`${escapeRegExp(filename)}:1:(\\d+)`, "g");
  return stack.replace(pattern, (_match, column: string) => {
    const mapped = mapGuestPosition({ line: 1, column: Number(column) }, source);
    return `${filename}:1:${mapped.column}`;
  });
}

/** The first `filename:line:column` frame of a guest stack, mapped into the user's code. */
export function firstStackPosition(stack: string, filename: string, source: WrappedSource): SourcePosition | undefined {
  const match = new RegExp(`${escapeRegExp(filename)}:(\\d+):(\\d+)`).exec(stack);
  if (match === null) return undefined;
  return mapGuestPosition({ line: Number(match[1]), column: Number(match[2]) }, source);
}

function rewriteImport(code: string, node: ImportDeclaration): Replacement {
  const start = node.start ?? 0;
  const end = node.end ?? start;
  const required = `require(${JSON.stringify(node.source.value)})`;
  const bindings: string[] = [];
  const named: string[] = [];
  for (const specifier of node.specifiers) {
    if (specifier.type === "ImportSpecifier") {
      const imported =
        specifier.imported.type === "Identifier" ? specifier.imported.name : JSON.stringify(specifier.imported.value);
      named.push(imported === specifier.local.name ? imported : `${imported}: ${specifier.local.name}`);
    } else {
      // A host module has no separate default export: default and namespace imports both give the module.
      bindings.push(`const ${specifier.local.name} = ${required};`);
    }
  }
  if (named.length > 0) bindings.push(`const { ${named.join(", ")} } = ${required};`);
  if (bindings.length === 0) bindings.push(`${required};`);
  // Keep the newlines the import spanned so every later line keeps its number.
  const lineBreaks = code.slice(start, end).split("\n").length - 1;
  return { start, end, text: bindings.join(" ") + "\n".repeat(lineBreaks) };
}

function applyReplacements(code: string, replacements: readonly Replacement[]): string {
  let output = "";
  let cursor = 0;
  for (const replacement of replacements) {
    output += code.slice(cursor, replacement.start) + replacement.text;
    cursor = replacement.end;
  }
  return output + code.slice(cursor);
}

function syntaxError(code: string, problem: GuestSyntaxError): TransformResult {
  const snippet = sourceSnippet(code, problem.line, problem.column);
  return { ok: false, error: { ...problem, ...(snippet === undefined ? {} : { snippet }) } };
}

function positionOf(node: Node): SourcePosition {
  const start = node.loc?.start;
  return { line: start?.line ?? 1, column: (start?.column ?? 0) + 1 };
}

function babelSyntaxError(error: unknown): GuestSyntaxError {
  const loc = isRecord(error) && isRecord(error.loc) ? error.loc : undefined;
  const line = typeof loc?.line === "number" ? loc.line : 1;
  const column = typeof loc?.column === "number" ? loc.column + 1 : 1;
  const raw = error instanceof Error ? error.message : String(error);
  // Babel appends "(line:column)"; the position is reported in its own fields.
  const message = raw.replace(/\s*\(\d+:\d+\)$/, "");
  return { message, line, column };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
