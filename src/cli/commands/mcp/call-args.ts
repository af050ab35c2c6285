import { UsageError } from "../../../terminal/args.js";
import { JsonDocumentError, parseJsonDocument } from "../../../util/json-document.js";

/**
 * The arguments of `mcpvm mcp call <server> <tool> …`: one JSON object (`'{"path": "/tmp"}'`, or `-`
 * to read it from stdin), or `key=value` pairs as the MCP Inspector's `--tool-arg` takes them.
 * Pure: the text is given, the tool's inputSchema decides how a pair's value is typed.
 */
export type RawCallArguments = { readonly kind: "json"; readonly text: string; readonly source: string } | { readonly kind: "pairs"; readonly pairs: readonly string[] } | { readonly kind: "none" };

function usage(message: string): UsageError {
  return new UsageError("USAGE", `mcpvm mcp call: ${message}. See \`mcpvm mcp call --help\`.`);
}

/** Which form the words after `<server> <tool>` are in (stdin is read by the caller for `-`). */
export function classifyCallArguments(words: readonly string[]): RawCallArguments {
  if (words.length === 0) return { kind: "none" };
  const [first = ""] = words;
  const looksJson = /^\s*[{[]/.test(first) || first === "-";
  if (looksJson) {
    if (words.length > 1) throw usage(`give the arguments as one JSON object or as key=value pairs, not both (extra: "${words[1]}")`);
    return { kind: "json", text: first, source: first === "-" ? "stdin" : "the command line" };
  }
  const bad = words.find((word) => word.indexOf("=") <= 0);
  if (bad !== undefined) throw usage(`"${bad}" is neither a JSON object nor key=value; write '{"key": "value"}' or key=value`);
  return { kind: "pairs", pairs: words };
}

/** A JSON object, or a usage error that says line:column of the problem. */
export function parseJsonArguments(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJsonDocument(text);
  } catch (error) {
    if (error instanceof JsonDocumentError) throw usage(`the arguments from ${source} are not valid JSON: ${error.message}`);
    throw error;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw usage(`the arguments must be a JSON object like {"key": "value"} (got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value})`);
  }
  return value as Record<string, unknown>;
}

function declaredTypes(schema: unknown, key: string): readonly string[] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (properties === null || typeof properties !== "object" || !Object.hasOwn(properties, key)) return [];
  const type = (properties as Record<string, { type?: unknown }>)[key]?.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

/**
 * `key=value` pairs as an object. A value is a string when the schema says the property is a
 * string (so `id=007` stays "007"); otherwise JSON when it parses (`count=3`, `tags=["a"]`,
 * `on=true`), else the text itself. The tool's validator then checks the result as it would a
 * guest's arguments.
 */
export function argumentsFromPairs(pairs: readonly string[], inputSchema: unknown): Record<string, unknown> {
  const out: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = pair.slice(0, at);
    const text = pair.slice(at + 1);
    if (seen.has(key)) throw usage(`"${key}" is given twice`);
    seen.add(key);
    const types = declaredTypes(inputSchema, key);
    if (types.length === 1 && types[0] === "string") {
      out.push([key, text]);
      continue;
    }
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      value = text;
    }
    out.push([key, value]);
  }
  // Object.fromEntries defines own properties: a "__proto__" key stays a plain key.
  return Object.fromEntries(out);
}
