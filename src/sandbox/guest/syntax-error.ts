import { parse } from "@babel/parser";
import type { Node } from "@babel/types";

export { sourceSnippet } from "./snippet.js";

/**
 * Syntax errors a person can act on: the offending line with a caret under the column, "unexpected
 * end of input" when the script stops short, and a plain "TypeScript is not supported" where the
 * parser would only say "Missing initializer" about a type annotation. Pure and engine-neutral.
 */

export interface SyntaxProblem {
  readonly message: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/**
 * Rewords a parse error of `code` where the parser's words mislead: an error at the very end is
 * "unexpected end of input", and code that parses as TypeScript is said to be TypeScript.
 */
export function explainParseError(code: string, problem: SyntaxProblem, offset: number | undefined): SyntaxProblem {
  if (parsesAsTypeScript(code)) {
    return {
      ...problem,
      message: "TypeScript is not supported in a guest script: remove the type annotations (or compile it to JavaScript first) and run it as .js",
    };
  }
  const end = code.trimEnd().length;
  if (offset !== undefined && offset >= end && /^Unexpected token\.?$/.test(problem.message)) {
    // Shown just after the last thing written, not on the empty line the parser stopped at.
    const before = code.slice(0, end).split(/\r?\n|\r/);
    return { message: "Unexpected end of input: a bracket, brace, parenthesis or string is not closed", line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
  }
  return problem;
}

function parsesAsTypeScript(code: string): boolean {
  try {
    parse(code, {
      sourceType: "unambiguous",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      plugins: ["typescript"],
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * The first `import(…)` expression in a program, if any. A guest script has no module loader, so
 * QuickJS would only say "could not load module" at run time, without a line.
 */
export function findDynamicImport(code: string, program: Node): Node | undefined {
  // Walking the whole tree costs; a script without the text `import(` cannot contain one.
  if (!/\bimport\s*\(/.test(code)) return undefined;
  let first: Node | undefined;
  const pending: unknown[] = [program];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    if (typeof node !== "object" || node === null) continue;
    const record = node as Record<string, unknown>;
    const found = record.type === "ImportExpression" || (record.type === "CallExpression" && (record.callee as { type?: unknown } | undefined)?.type === "Import");
    if (found && (first === undefined || ((node as Node).start ?? 0) < (first.start ?? 0))) first = node as Node;
    for (const [key, value] of Object.entries(record)) {
      if (SKIPPED_KEYS.has(key)) continue;
      if (typeof value === "object" && value !== null) pending.push(value);
    }
  }
  return first;
}

const SKIPPED_KEYS = new Set(["loc", "extra", "leadingComments", "trailingComments", "innerComments"]);

export const DYNAMIC_IMPORT_MESSAGE =
  '`import()` is not supported in a guest script: use `require("host:…")`, or a static `import … from "host:…"` at the top of the script';
