import { isPlainRecord, localRefSegments, resolveSegments } from "./json-pointer.js";
import { firstSentence, toolHints } from "./metadata.js";
import type { ToolForTypes } from "./types.js";
import { arrayOf, key, literal, union } from "./type-text.js";

/**
 * A module's tools as few tokens as a model can still write correct calls from (issue 15): one
 * line per tool with every parameter's name, type, optionality and enum values, the declared return
 * type and a one-line summary:
 *
 *   type Relation = {from: string, to: string, relationType: string}
 *   create_relations({relations: Relation[]}): {relations: Relation[]} — Create multiple new relations…
 *
 * What the full .d.ts spends tokens on and this leaves out: JSDoc per parameter, `export function`
 * and `input:` on every line, `Output = unknown` aliases, the same object type spelled out again in
 * each tool (named once here, after the property that holds it), a return type most tools share
 * (said once in the header), and read-only marks (only destructive tools are marked).
 * Synchronous and cheap: no json-schema-to-typescript.
 */

const MAX_DEPTH = 4;
/** A lone signature (a search result) longer than this is shown with less nesting, then cut. */
const SIGNATURE_MAX_CHARS = 300;
const MAX_LITERALS = 10;
const MAX_UNION = 6;
const MAX_REF_HOPS = 8;
/** An object type written out at least this long, seen twice or more, gets a name. */
const ALIAS_MIN_CHARS = 24;
/** Summaries are cut shorter than module metadata's: the signature already says much of it. */
export const COMPACT_SUMMARY_CHARS = 100;

export interface CompactListing {
  /** `type Name = {…}` lines the tool lines refer to. */
  readonly aliases: readonly string[];
  /** The return type shared by most tools, left off their lines (undefined when none is shared). */
  readonly commonOutput: string | undefined;
  readonly lines: readonly string[];
}

/** A rendered type: `raw` with every object spelled out (what aliases are keyed by), `shown` with aliases used. */
interface Rendered {
  readonly raw: string;
  readonly shown: string;
}

interface Seen {
  count: number;
  /** The property the object first appeared under, singular for array items: the alias's name. */
  readonly hint: string | undefined;
}

function singular(word: string): string {
  if (/ies$/i.test(word)) return word.slice(0, -3) + "y";
  if (/(ss|us)$/i.test(word)) return word;
  if (/(sh|ch|x)es$/i.test(word)) return word.slice(0, -2);
  return word.endsWith("s") ? word.slice(0, -1) : word;
}

function pascal(word: string): string {
  const parts = word.split(/[^A-Za-z0-9]+/).filter((p) => p !== "");
  const name = parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join("");
  return /^[A-Za-z]/.test(name) ? name : "Item";
}

/**
 * Renders schemas twice: the first pass counts every object type, the second names those seen
 * more than once and long enough to be worth a name.
 */
class Renderer {
  private readonly seen = new Map<string, Seen>();
  private names = new Map<string, string>();
  private readonly declared = new Map<string, string>();
  private counting = true;

  /** The schema `$ref`s resolve against: the tool's input or output schema being rendered. */
  root: unknown;

  constructor(private readonly maxDepth = MAX_DEPTH) {}

  /** After the counting pass: choose alias names, most used first, unique, never a tool-line word. */
  nameAliases(): void {
    this.counting = false;
    // Names the listing already uses for something else.
    const taken = new Set<string>(["Record", "Array", "Object", "Promise", "Date", "Map", "Set"]);
    const candidates = [...this.seen.entries()].filter(([raw, s]) => s.count >= 2 && raw.length >= ALIAS_MIN_CHARS);
    candidates.sort((a, b) => b[1].count * b[0].length - a[1].count * a[0].length);
    const names = new Map<string, string>();
    for (const [raw, s] of candidates) {
      const base = pascal(singular(s.hint ?? "item"));
      let name = base;
      for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
      taken.add(name);
      names.set(raw, name);
    }
    this.names = names;
  }

  /** `type Name = {…}` for each alias used, in the order first used. */
  aliasLines(): string[] {
    return [...this.declared.entries()].map(([name, shown]) => `type ${name} = ${shown}`);
  }

  render(schema: unknown, depth: number, hint: string | undefined, hops = 0): Rendered {
    if (!isPlainRecord(schema)) return plain("unknown");
    if (typeof schema.$ref === "string") {
      const segments = localRefSegments(schema.$ref);
      if (segments === undefined || hops >= MAX_REF_HOPS) return plain("unknown");
      return this.render(resolveSegments(this.root, segments), depth, hint, hops + 1);
    }
    if (Object.hasOwn(schema, "const")) return plain(literal(schema.const));
    if (Array.isArray(schema.enum)) {
      if (schema.enum.length <= MAX_LITERALS) return plain(union(schema.enum.map(literal)));
      const kinds = new Set(schema.enum.map((item) => (item === null ? "null" : typeof item)));
      return plain(union([...kinds].map((kind) => (["string", "number", "boolean", "null"].includes(kind) ? kind : "unknown"))));
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const members = schema[keyword];
      if (Array.isArray(members) && members.length > 0) {
        if (members.length > MAX_UNION) return plain("unknown");
        return joined(members.map((m) => this.render(m, depth, hint, hops)), " | ");
      }
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return joined(schema.allOf.map((m) => this.render(m, depth, hint, hops)), " & ");
    if (Array.isArray(schema.type)) {
      return joined(schema.type.map((t) => (typeof t === "string" ? this.renderType(t, schema, depth, hint, hops) : plain("unknown"))), " | ");
    }
    if (typeof schema.type === "string") return this.renderType(schema.type, schema, depth, hint, hops);
    if (isPlainRecord(schema.properties)) return this.renderObject(schema, depth, hint, hops);
    return plain("unknown");
  }

  private renderType(type: string, schema: Record<string, unknown>, depth: number, hint: string | undefined, hops: number): Rendered {
    switch (type) {
      case "string":
      case "boolean":
      case "null":
        return plain(type);
      case "number":
      case "integer":
        return plain("number");
      case "array": {
        if (!isPlainRecord(schema.items)) return plain("unknown[]");
        const item = this.render(schema.items, depth + 1, hint === undefined ? undefined : singular(hint), hops);
        return { raw: arrayOf(item.raw), shown: arrayOf(item.shown) };
      }
      case "object":
        return this.renderObject(schema, depth, hint, hops);
      default:
        return plain("unknown");
    }
  }

  private renderObject(schema: Record<string, unknown>, depth: number, hint: string | undefined, hops: number): Rendered {
    const properties = isPlainRecord(schema.properties) ? schema.properties : {};
    const names = Object.keys(properties);
    const additional = schema.additionalProperties;
    if (names.length === 0) {
      if (isPlainRecord(additional)) {
        const value = this.render(additional, depth + 1, undefined, hops);
        return { raw: `Record<string, ${value.raw}>`, shown: `Record<string, ${value.shown}>` };
      }
      return plain(additional === false ? "{}" : "Record<string, unknown>");
    }
    if (depth >= this.maxDepth) return plain("object");
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((item) => typeof item === "string") : []);
    const members = names.map((name) => ({ name, type: this.render(properties[name], depth + 1, name, hops) }));
    const member = (m: { name: string; type: Rendered }, form: keyof Rendered) => `${key(m.name)}${required.has(m.name) ? "" : "?"}: ${m.type[form]}`;
    const raw = `{${members.map((m) => member(m, "raw")).join(", ")}}`;
    const shown = `{${members.map((m) => member(m, "shown")).join(", ")}}`;
    // The top level (depth 0) is the tool's own argument or result: never aliased, it is on its line once.
    if (depth === 0) return { raw, shown };
    if (this.counting) {
      const seen = this.seen.get(raw);
      if (seen === undefined) this.seen.set(raw, { count: 1, hint });
      else seen.count += 1;
      return { raw, shown };
    }
    const alias = this.names.get(raw);
    if (alias === undefined) return { raw, shown };
    if (!this.declared.has(alias)) this.declared.set(alias, shown);
    return { raw, shown: alias };
  }
}

function plain(text: string): Rendered {
  return { raw: text, shown: text };
}

function joined(parts: readonly Rendered[], separator: string): Rendered {
  // `&` binds tighter than `|`: a union inside an intersection keeps its parentheses.
  const member = (text: string) => (separator === " & " && text.includes(" | ") ? `(${text})` : text);
  const join = (texts: readonly string[]) => {
    const unique = [...new Set(texts.map(member))];
    return unique.length === 0 ? "never" : unique.join(separator);
  };
  return { raw: join(parts.map((p) => p.raw)), shown: join(parts.map((p) => p.shown)) };
}

/** `{a: string, b?: number}` as the argument of a call: `()` when the tool takes nothing. */
function argument(text: string): string {
  return text === "{}" || text === "Record<string, unknown>" ? "" : text;
}

/** One line per tool, with shared object types named once and the most shared return type said once. */
export function compactListing(tools: readonly ToolForTypes[]): CompactListing {
  // A catalog hands out one tools array per listing, so each listing is rendered once.
  const cached = listings.get(tools);
  if (cached !== undefined) return cached;
  const listing = renderListing(tools);
  listings.set(tools, listing);
  return listing;
}

const listings = new WeakMap<readonly ToolForTypes[], CompactListing>();

function renderListing(tools: readonly ToolForTypes[]): CompactListing {
  const renderer = new Renderer();
  const renderAll = () =>
    tools.map((tool) => {
      renderer.root = tool.inputSchema;
      const input = renderer.render(tool.inputSchema, 0, undefined).shown;
      renderer.root = tool.outputSchema;
      const output = tool.outputSchema === undefined ? undefined : renderer.render(tool.outputSchema, 0, undefined).shown;
      return { tool, input, output };
    });
  // The first pass counts object types across inputs and outputs, the second names the shared ones.
  renderAll();
  renderer.nameAliases();
  const rendered = renderAll();

  const outputs = new Map<string, number>();
  for (const r of rendered) if (r.output !== undefined) outputs.set(r.output, (outputs.get(r.output) ?? 0) + 1);
  const [common, commonCount] = [...outputs.entries()].sort((a, b) => b[1] - a[1])[0] ?? [undefined, 0];
  // Said once only when it saves something and no tool without a declared type could be mistaken for it.
  const commonOutput = common !== undefined && commonCount >= 3 && rendered.every((r) => r.output !== undefined) ? common : undefined;

  const lines = rendered.map(({ tool, input, output }) => {
    const returns = output === undefined || output === commonOutput ? "" : `: ${output}`;
    const summary = firstSentence(tool.description ?? tool.annotations?.title ?? "", COMPACT_SUMMARY_CHARS);
    const destructive = toolHints(tool).destructive === true ? " [destructive]" : "";
    return `${tool.jsName}(${argument(input)})${returns}${summary === "" ? "" : ` — ${summary}`}${destructive}`;
  });
  return { aliases: renderer.aliasLines(), commonOutput, lines };
}

/**
 * One tool's compact signature on its own (a search result): every object written out (a lone line
 * has nowhere to name one), nesting reduced and then cut with "…" past `maxLength`.
 */
export function compactSignature(tool: ToolForTypes, maxLength = SIGNATURE_MAX_CHARS): string {
  let line = "";
  for (const depth of [MAX_DEPTH, 3, 2, 1]) {
    const renderer = new Renderer(depth);
    renderer.root = tool.inputSchema;
    const input = argument(renderer.render(tool.inputSchema, 0, undefined).shown);
    renderer.root = tool.outputSchema;
    const output = tool.outputSchema === undefined ? "" : `: ${renderer.render(tool.outputSchema, 0, undefined).shown}`;
    line = `${tool.jsName}(${input})${output}`;
    if (line.length <= maxLength) return line;
  }
  return `${line.slice(0, Math.max(0, maxLength - 1))}…`;
}

/** The listing as text: aliases, then a note on the shared return type, then the tool lines. */
export function compactListingText(listing: CompactListing): string {
  return [...listing.aliases, ...(listing.commonOutput === undefined ? [] : [`Unless shown, functions return ${listing.commonOutput}.`]), ...listing.lines].join("\n");
}
