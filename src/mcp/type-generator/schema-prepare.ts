import { sanitizeDescription } from "../sanitise/description.js";
import { TypeGeneratorError } from "./errors.js";
import {
  defineOwn,
  isPlainRecord,
  localRefSegments,
  pointerFromSegments,
  resolveSegments,
} from "./json-pointer.js";
import { pascalName, type TypeNameAllocator } from "./names.js";

/**
 * Rebuilds an untrusted tool schema into one json-schema-to-typescript can compile safely:
 * - only keywords that shape a type survive (`tsType`, `tsEnumNames`, `$id`, … from a server would
 *   inject raw TypeScript or change how refs resolve);
 * - descriptions pass through sanitizeDescription; server titles are dropped (they would become
 *   un-prefixed type names) and every named type gets a per-tool name from the allocator;
 * - local `$ref`s are rewritten to point into the synthetic root the batch compile uses; refs that
 *   leave the document (URLs, files, anchors) or point nowhere become `unknown` and are never fetched;
 * - depth and size are bounded so a hostile schema cannot exhaust the compiler.
 */
export interface PrepareLimits {
  readonly maxDepth: number;
  readonly maxNodes: number;
}

export const DEFAULT_PREPARE_LIMITS: PrepareLimits = Object.freeze({ maxDepth: 24, maxNodes: 4000 });

export interface PrepareContext {
  /** JSON Pointer (as a `#…` ref) of this schema inside the compiled document. */
  readonly base: string;
  /** The type name of the schema itself, e.g. `CreateEntitiesInput`. */
  readonly rootName: string;
  /** Prefix for nested named types, e.g. `CreateEntities`. */
  readonly prefix: string;
  readonly allocator: TypeNameAllocator;
  readonly limits: PrepareLimits;
}

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const DEFINITION_MAPS = ["$defs", "definitions"] as const;
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf"] as const;
const MAX_LITERAL_DEPTH = 8;

interface Child {
  /** Path in the rebuilt schema. */
  readonly segments: readonly string[];
  readonly node: unknown;
  /** The key the server gave a definition, a hint for its type name. */
  readonly definitionKey?: string;
}

/** Sub-schemas we keep, each with its path in the rebuilt schema (which may differ from the original). */
function childSchemas(node: Record<string, unknown>): Child[] {
  const children: Child[] = [];
  if (isPlainRecord(node.properties)) {
    for (const [key, child] of Object.entries(node.properties)) children.push({ segments: ["properties", key], node: child });
  }
  // The library refuses a schema with both `$defs` and `definitions`. Every referenced definition is
  // reached through a rewritten `$ref` and named by us, so both move under `$defs` with numbered keys.
  let definitionIndex = 0;
  for (const keyword of DEFINITION_MAPS) {
    const map = node[keyword];
    if (!isPlainRecord(map)) continue;
    for (const [definitionKey, child] of Object.entries(map)) {
      children.push({ segments: ["$defs", String(definitionIndex)], node: child, definitionKey });
      definitionIndex += 1;
    }
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((item, index) => children.push({ segments: [keyword, String(index)], node: item }));
  }
  const items = node.items;
  if (Array.isArray(items)) items.forEach((item, index) => children.push({ segments: ["items", String(index)], node: item }));
  else if (isPlainRecord(items)) children.push({ segments: ["items"], node: items });
  if (isPlainRecord(node.additionalItems)) children.push({ segments: ["additionalItems"], node: node.additionalItems });
  const additional = additionalPropertiesSource(node);
  if (isPlainRecord(additional)) children.push({ segments: ["additionalProperties"], node: additional });
  return children;
}

/**
 * TypeScript requires every declared property to fit the index signature, and allows one string
 * index signature; so a typed additionalProperties (or a single patternProperties entry) is kept
 * only when nothing else shares the object, and widens to `unknown` otherwise.
 */
function additionalPropertiesSource(node: Record<string, unknown>): unknown {
  const declared = node.additionalProperties;
  if (declared === false) return false;
  const patterns = isPlainRecord(node.patternProperties) ? Object.values(node.patternProperties) : [];
  const hasProperties = isPlainRecord(node.properties) && Object.keys(node.properties).length > 0;
  const sources = [...(isPlainRecord(declared) ? [declared] : []), ...patterns.filter(isPlainRecord)];
  if (sources.length === 0) return declared === true || patterns.length > 0 ? true : undefined;
  if (sources.length === 1 && !hasProperties) return sources[0];
  return true;
}

interface Visited {
  readonly segments: readonly string[];
  readonly nameHint: string;
}

interface Collected {
  readonly visited: Map<object, Visited>;
  readonly refs: Set<string>;
}

function collect(root: Record<string, unknown>, limits: PrepareLimits): Collected {
  const visited = new Map<object, Visited>();
  const refs = new Set<string>();
  const stack: Array<{ node: unknown; segments: readonly string[]; nameHint: string; depth: number }> = [
    { node: root, segments: [], nameHint: "", depth: 0 },
  ];
  while (stack.length > 0) {
    const { node, segments, nameHint, depth } = stack.pop()!;
    if (!isPlainRecord(node) || depth > limits.maxDepth || visited.has(node)) continue;
    visited.set(node, { segments, nameHint });
    if (visited.size > limits.maxNodes) {
      throw new TypeGeneratorError("TYPEGEN_SCHEMA_TOO_COMPLEX", `schema has more than ${limits.maxNodes} sub-schemas`);
    }
    if (typeof node.$ref === "string") refs.add(node.$ref);
    for (const child of childSchemas(node).reverse()) {
      const nameHint = child.definitionKey ?? child.segments[child.segments.length - 1] ?? "";
      stack.push({ node: child.node, segments: [...segments, ...child.segments], nameHint, depth: depth + 1 });
    }
  }
  return { visited, refs };
}

/** Copy a JSON value (enum member, const) with own keys only and bounded depth. */
function cloneLiteral(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_LITERAL_DEPTH) return null;
  if (Array.isArray(value)) return value.map((item) => cloneLiteral(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) defineOwn(out, key, cloneLiteral(item, depth + 1));
  return out;
}

export function prepareSchema(root: Record<string, unknown>, context: PrepareContext): Record<string, unknown> {
  const { visited, refs } = collect(root, context.limits);
  const targetNames = new Map<object, string>([[root, context.rootName]]);
  const rewrittenRefs = new Map<string, string>();
  for (const ref of refs) {
    const segments = localRefSegments(ref);
    if (segments === undefined) continue;
    const target = resolveSegments(root, segments);
    if (!isPlainRecord(target)) continue;
    const place = visited.get(target);
    if (place === undefined) continue;
    if (!targetNames.has(target)) {
      const hint = typeof target.title === "string" ? target.title : place.nameHint;
      targetNames.set(target, context.allocator.allocate(`${context.prefix}${pascalName(hint, "Type")}`));
    }
    rewrittenRefs.set(ref, `${context.base}${pointerFromSegments(place.segments)}`);
  }

  const build = (node: unknown, depth: number): Record<string, unknown> => {
    if (!isPlainRecord(node) || depth > context.limits.maxDepth) return {};
    const out: Record<string, unknown> = {};
    const name = targetNames.get(node);
    if (name !== undefined) out.title = name;

    const notes: string[] = [];
    if (typeof node.description === "string") notes.push(sanitizeDescription(node.description));
    if (typeof node.$ref === "string") {
      const rewritten = rewrittenRefs.get(node.$ref);
      if (rewritten !== undefined) out.$ref = rewritten;
      else {
        // Our own literal (server `tsType` is never copied): the type the ref stood for is unknown.
        out.tsType = "unknown";
        notes.push(`Unresolved $ref ${JSON.stringify(sanitizeDescription(node.$ref, 160))}: only references inside this schema are followed.`);
      }
    }
    if (notes.length > 0) out.description = notes.join("\n\n");

    const type = node.type;
    if (typeof type === "string" && JSON_TYPES.has(type)) out.type = type;
    else if (Array.isArray(type)) {
      const types = type.filter((item): item is string => typeof item === "string" && JSON_TYPES.has(item));
      if (types.length > 0) out.type = [...new Set(types)];
    }
    if (Array.isArray(node.required)) out.required = node.required.filter((item) => typeof item === "string");
    if (Array.isArray(node.enum) && node.enum.length > 0) out.enum = node.enum.map((item) => cloneLiteral(item));
    if (Object.hasOwn(node, "const")) out.const = cloneLiteral(node.const);
    if (typeof node.deprecated === "boolean") out.deprecated = node.deprecated;
    if (typeof node.nullable === "boolean") out.nullable = node.nullable;

    if (isPlainRecord(node.properties)) {
      const properties: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node.properties)) defineOwn(properties, key, build(child, depth + 1));
      out.properties = properties;
    }
    const definitions = DEFINITION_MAPS.flatMap((keyword) => (isPlainRecord(node[keyword]) ? Object.values(node[keyword]) : []));
    if (definitions.length > 0) out.$defs = Object.fromEntries(definitions.map((child, index) => [String(index), build(child, depth + 1)]));
    for (const keyword of SCHEMA_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list) && list.length > 0) out[keyword] = list.map((item) => build(item, depth + 1));
    }
    if (Array.isArray(node.items)) out.items = node.items.map((item) => build(item, depth + 1));
    else if (isPlainRecord(node.items)) out.items = build(node.items, depth + 1);
    if (isPlainRecord(node.additionalItems)) out.additionalItems = build(node.additionalItems, depth + 1);
    else if (typeof node.additionalItems === "boolean") out.additionalItems = node.additionalItems;
    const additional = additionalPropertiesSource(node);
    if (isPlainRecord(additional)) out.additionalProperties = build(additional, depth + 1);
    else if (typeof additional === "boolean") out.additionalProperties = additional;
    return out;
  };

  return build(root, 0);
}
