import { TypeGeneratorError } from "./errors.js";
import type { ToolForTypes } from "./types.js";

const SERVER_NAME = /^[a-z][a-z0-9-]*$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Words that cannot name an exported function in an ES module (strict mode), plus our own `$batch`.
const RESERVED_FUNCTION_NAMES = new Set([
  "arguments", "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
  "delete", "do", "else", "enum", "eval", "export", "extends", "false", "finally", "for", "function", "if",
  "implements", "import", "in", "instanceof", "interface", "let", "new", "null", "package", "private",
  "protected", "public", "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof",
  "var", "void", "while", "with", "yield", "$batch",
]);

/** Names the generated module declares itself; tool types must never take them. */
export const BATCH_OPTIONS_TYPE = "BatchOptions";
export const BATCH_RESULT_TYPE = "BatchResult";
export const SYNTHETIC_ROOT_TYPE = "McpvmToolTypes";
export const CALL_OPTIONS_TYPE = "CallOptions";
export const PROGRESS_TYPE = "Progress";
const RESERVED_TYPE_NAMES = [BATCH_OPTIONS_TYPE, BATCH_RESULT_TYPE, SYNTHETIC_ROOT_TYPE, CALL_OPTIONS_TYPE, PROGRESS_TYPE];

const MAX_NAME_PART = 48;

export function assertServerName(serverName: string): void {
  if (!SERVER_NAME.test(serverName)) {
    throw new TypeGeneratorError(
      "TYPEGEN_INVALID_SERVER_NAME",
      `MCP server name ${JSON.stringify(serverName)} is not valid for a module name: use lower-case letters, digits and "-", starting with a letter.`,
      { data: { serverName } },
    );
  }
}

/** The catalog promises safe identifiers; a broken promise would produce invalid TypeScript, so say so loudly. */
export function assertToolNames(serverName: string, tools: readonly ToolForTypes[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!IDENTIFIER.test(tool.jsName) || RESERVED_FUNCTION_NAMES.has(tool.jsName)) {
      throw new TypeGeneratorError(
        "TYPEGEN_INVALID_TOOL_NAME",
        `Tool ${JSON.stringify(tool.originalName)} of MCP server "${serverName}" has JS name ${JSON.stringify(tool.jsName)}, which is not a usable function name; the catalog's name sanitiser must produce a non-reserved identifier.`,
        { data: { serverName, jsName: tool.jsName, originalName: tool.originalName } },
      );
    }
    if (seen.has(tool.jsName)) {
      throw new TypeGeneratorError(
        "TYPEGEN_DUPLICATE_TOOL_NAME",
        `MCP server "${serverName}" has two tools with the JS name "${tool.jsName}"; the catalog's name sanitiser must resolve collisions before types are generated.`,
        { data: { serverName, jsName: tool.jsName } },
      );
    }
    seen.add(tool.jsName);
  }
}

/**
 * PascalCase from arbitrary text, using only [A-Za-z0-9] and starting with a capital letter.
 * json-schema-to-typescript re-runs its own `toSafeString` on every name; the digit rule below makes
 * our names fixed points of it, so the names we choose are the names it prints.
 */
export function pascalName(text: string, fallback: string): string {
  const joined = text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")
    .replace(/(\d)([a-z])/g, (_match, digit: string, letter: string) => digit + letter.toUpperCase())
    .slice(0, MAX_NAME_PART);
  if (joined.length === 0) return fallback;
  return /^[0-9]/.test(joined) ? `${fallback}${joined}` : joined;
}

/** Hands out unique type names in call order: the first asker gets the plain name, later ones a counter. */
export class TypeNameAllocator {
  readonly #used = new Set<string>(RESERVED_TYPE_NAMES);
  readonly #allocated: string[] = [];

  allocate(base: string): string {
    let candidate = base;
    for (let counter = 2; this.#used.has(candidate); counter += 1) candidate = `${base}${counter}`;
    this.#used.add(candidate);
    this.#allocated.push(candidate);
    return candidate;
  }

  /** Every name handed out, in order. */
  get allocated(): readonly string[] {
    return this.#allocated;
  }
}

export interface ToolTypeNames {
  readonly prefix: string;
  readonly input: string;
  readonly output: string;
}

/**
 * Input/output type names for every tool, allocated before any nested name so that a tool's main
 * types are stable whatever its schemas contain. Both the module declaration and the `tools` global
 * call this, so they agree on the names.
 */
export function allocateToolTypeNames(
  tools: readonly Pick<ToolForTypes, "jsName">[],
  allocator: TypeNameAllocator = new TypeNameAllocator(),
): ToolTypeNames[] {
  return tools.map((tool) => {
    const prefix = pascalName(tool.jsName, "Tool");
    return { prefix, input: allocator.allocate(`${prefix}Input`), output: allocator.allocate(`${prefix}Output`) };
  });
}
