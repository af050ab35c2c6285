import { printParseErrorCode, visit, type ParseError } from "jsonc-parser";
import { parseJsonSafe } from "./json.js";
import { stripJsonc } from "./jsonc-strip.js";

/**
 * Reading a JSON file a person may have edited. JSON.parse alone loses data without a word (the
 * last of two equal keys wins), rejects the byte-order mark Windows editors write, and reports a
 * character offset nobody can find in an editor. This checks the text with jsonc-parser first, so
 * every problem is reported as `line:column` with what was expected, then parses it with
 * parseJsonSafe (which never creates `__proto__`-style keys).
 */
export interface JsonProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
  /** For a refused key: where it is (its enclosing objects' keys, then the key), for messages that name the JSON path. */
  readonly path?: readonly (string | number)[];
}

export class JsonDocumentError extends Error {
  constructor(
    readonly problems: readonly JsonProblem[],
    readonly kind: "syntax" | "duplicate-key" | "reserved-key",
  ) {
    const first = problems[0];
    super(first === undefined ? "not valid JSON" : `line ${first.line}, column ${first.column}: ${first.message}`);
    this.name = "JsonDocumentError";
  }
}

export interface JsonDocumentOptions {
  /** JSONC: `//` and `/* *\/` comments and trailing commas (VS Code's mcp.json, settings.json). */
  readonly comments?: boolean;
  /**
   * Refuse `__proto__`, `constructor` and `prototype` keys, which parseJsonSafe drops, instead of
   * dropping them without a word: in a file a person writes (config.json) they are a server, a
   * plugin or a setting that would silently not exist.
   */
  readonly refuseReservedKeys?: boolean | ((path: readonly (string | number)[]) => boolean);
}

/** Keys parseJsonSafe drops; a document read with `refuseReservedKeys` refuses them. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The JSON path of the first `__proto__`/`constructor`/`prototype` key in `value`, which reading with `refuseReservedKeys` would refuse. */
export function reservedKeyPath(value: unknown, path: readonly (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (!Array.isArray(value) && RESERVED_KEYS.has(key)) return at;
    const inner = reservedKeyPath(child, at);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

const BOM = "\ufeff";

export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

function describeSyntax(error: ParseError, options: JsonDocumentOptions): string {
  const code = printParseErrorCode(error.error);
  switch (code) {
    case "InvalidCommentToken":
      return "comments are not allowed here (this file is plain JSON, and mcpvm rewrites it)";
    case "PropertyNameExpected":
      return options.comments === true ? "expected a property name in double quotes" : "expected a property name in double quotes (is there a trailing comma before it?)";
    case "ValueExpected":
      return "expected a value (is there a trailing comma or a missing value?)";
    case "CommaExpected":
      return "expected a comma between entries";
    case "ColonExpected":
      return "expected a colon after the property name";
    case "CloseBraceExpected":
      return "expected } (an object is not closed)";
    case "CloseBracketExpected":
      return "expected ] (an array is not closed)";
    case "EndOfFileExpected":
      return "unexpected text after the end of the JSON value";
    case "UnexpectedEndOfString":
      return "a string is not closed";
    case "InvalidCharacter":
    case "InvalidSymbol":
      return "unexpected character";
    default:
      return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  }
}

/** Where `offset` is, counted from 1 as editors do. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parse `text` as JSON (or JSONC), refusing duplicate keys; throws JsonDocumentError with line:column. */
export function parseJsonDocument(input: string, options: JsonDocumentOptions = {}): unknown {
  const text = stripBom(input);
  if (text.trim() === "") throw new JsonDocumentError([{ line: 1, column: 1, message: "the file is empty (an empty config is {})" }], "syntax");
  const syntax: ParseError[] = [];
  const duplicates: JsonProblem[] = [];
  const reserved: JsonProblem[] = [];
  /** Per open object: each key and the line it first appeared on. */
  const keyStack: Map<string, number>[] = [];
  visit(
    text,
    {
      onObjectBegin: () => {
        keyStack.push(new Map());
      },
      onObjectEnd: () => {
        keyStack.pop();
      },
      onObjectProperty: (property, _offset, _length, startLine, startCharacter, pathSupplier) => {
        const keys = keyStack[keyStack.length - 1];
        if (keys === undefined) return;
        const refuse = options.refuseReservedKeys;
        if (refuse !== undefined && refuse !== false && RESERVED_KEYS.has(property) && (refuse === true || refuse([...pathSupplier(), property]))) {
          reserved.push({ line: startLine + 1, column: startCharacter + 1, path: [...pathSupplier(), property], message: `the key "${property}" cannot be used (mcpvm never reads __proto__, constructor or prototype keys, so it would be ignored); rename it` });
        }
        const firstLine = keys.get(property);
        if (firstLine !== undefined) {
          duplicates.push({
            line: startLine + 1,
            column: startCharacter + 1,
            message: `the key "${property}" appears twice in the same object (first on line ${firstLine}); only one can be kept, so remove or rename the other`,
          });
        } else {
          keys.set(property, startLine + 1);
        }
      },
      onError: (error, offset) => {
        syntax.push({ error, offset, length: 0 });
      },
    },
    { disallowComments: options.comments !== true, allowTrailingComma: options.comments === true },
  );
  if (syntax.length > 0) {
    // One mistake often yields several errors at the same spot (a trailing comma: "property name
    // expected" and "value expected"); the first says it best.
    const distinct = syntax.filter((error, index) => syntax.findIndex((other) => other.offset === error.offset) === index);
    throw new JsonDocumentError(
      distinct.slice(0, 3).map((error) => ({ ...lineColumnAt(text, error.offset), message: describeSyntax(error, options) })),
      "syntax",
    );
  }
  if (duplicates.length > 0) throw new JsonDocumentError(duplicates, "duplicate-key");
  if (reserved.length > 0) throw new JsonDocumentError(reserved, "reserved-key");
  if (options.comments === true) return parseJsonSafe(stripJsonc(text));
  return parseJsonSafe(text);
}
