import { parse } from "@babel/parser";
import type { ImportDeclaration, Node, Statement } from "@babel/types";
import { DYNAMIC_IMPORT_MESSAGE, explainParseError, findDynamicImport, sourceSnippet } from "./syntax-error.js";
import { wrapScriptBody, type SourcePosition, type WrappedSource } from "./wrapper.js";

export { firstStackPosition, mapGuestPosition, mapGuestStack, type SourcePosition, type WrappedSource } from "./wrapper.js";

/**
 * Parses a guest script body with Babel, rewrites static `import … from "host:x"` into
 * `require("host:x")` (each import replaced in place, padded to the lines it occupied, so line
 * numbers hold), refuses `export` and `import()`, and wraps it (wrapper.ts). Engine-neutral and pure:
 * both engines evaluate the output as a script. Scripts that need none of this skip the parser
 * (plain-script.ts).
 */

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

  return { ok: true, source: wrapScriptBody(applyReplacements(code, replacements), code) };
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
