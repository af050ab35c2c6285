import { isPlainRecord, localRefSegments, resolveSegments } from "./json-pointer.js";
import { inputIsOptional } from "./tool-list.js";
import type { ToolForTypes } from "./types.js";
import { arrayOf, key, literal, union } from "./type-text.js";

/**
 * One-line TypeScript signatures for listings (search_tools, module_info): the shape of a tool's
 * input and output written inline, nested objects elided to `object` past a depth, so a model can
 * pick a tool without reading the whole .d.ts. Synchronous and cheap: no json-schema-to-typescript.
 */
export interface SignatureOptions {
  /** A longer signature is re-rendered with less nesting, then cut with "…". */
  readonly maxLength?: number;
}

const DEFAULT_MAX_LENGTH = 240;
const MAX_LITERALS = 6;
const MAX_UNION = 5;
const MAX_REF_HOPS = 8;

interface RenderState {
  readonly root: unknown;
  readonly maxDepth: number;
}

function renderObject(schema: Record<string, unknown>, state: RenderState, depth: number, hops: number): string {
  const properties = isPlainRecord(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const additional = schema.additionalProperties;
  if (names.length === 0) {
    if (isPlainRecord(additional)) return `Record<string, ${render(additional, state, depth + 1, hops)}>`;
    return additional === false ? "{}" : "Record<string, unknown>";
  }
  if (depth >= state.maxDepth) return "object";
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((item) => typeof item === "string") : []);
  const members = names.map((name) => `${key(name)}${required.has(name) ? "" : "?"}: ${render(properties[name], state, depth + 1, hops)}`);
  return `{ ${members.join("; ")} }`;
}

function renderType(type: string, schema: Record<string, unknown>, state: RenderState, depth: number, hops: number): string {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
      return type;
    case "number":
    case "integer":
      return "number";
    case "array":
      if (isPlainRecord(schema.items)) return arrayOf(render(schema.items, state, depth + 1, hops));
      return "unknown[]";
    case "object":
      return renderObject(schema, state, depth, hops);
    default:
      return "unknown";
  }
}

function render(schema: unknown, state: RenderState, depth: number, hops: number): string {
  if (!isPlainRecord(schema)) return "unknown";
  if (typeof schema.$ref === "string") {
    const segments = localRefSegments(schema.$ref);
    if (segments === undefined || hops >= MAX_REF_HOPS) return "unknown";
    return render(resolveSegments(state.root, segments), state, depth, hops + 1);
  }
  if (Object.hasOwn(schema, "const")) return literal(schema.const);
  if (Array.isArray(schema.enum)) {
    if (schema.enum.length <= MAX_LITERALS) return union(schema.enum.map(literal));
    const kinds = new Set(schema.enum.map((item) => (item === null ? "null" : typeof item)));
    return union([...kinds].map((kind) => (["string", "number", "boolean", "null"].includes(kind) ? kind : "unknown")));
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const members = schema[keyword];
    if (Array.isArray(members) && members.length > 0) {
      if (members.length > MAX_UNION) return "unknown";
      return union(members.map((member) => render(member, state, depth, hops)));
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return schema.allOf.map((member) => render(member, state, depth, hops)).join(" & ");
  }
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => (typeof type === "string" ? renderType(type, schema, state, depth, hops) : "unknown")));
  if (typeof schema.type === "string") return renderType(schema.type, schema, state, depth, hops);
  if (isPlainRecord(schema.properties)) return renderObject(schema, state, depth, hops);
  return "unknown";
}

/** The inline TypeScript type of a schema, nested objects past `maxDepth` shown as `object`. */
export function formatSchemaType(schema: unknown, maxDepth = 2): string {
  return render(schema, { root: schema, maxDepth }, 0, 0);
}

/** `create_entities(input: { entities: { name: string; … }[] }): { entities: object[] }` on one line. */
export function formatToolSignature(tool: ToolForTypes, options: SignatureOptions = {}): string {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const optional = inputIsOptional(tool) ? "?" : "";
  let signature = "";
  for (const depth of [3, 2, 1]) {
    const output = tool.outputSchema === undefined ? "unknown" : formatSchemaType(tool.outputSchema, depth);
    signature = `${tool.jsName}(input${optional}: ${formatSchemaType(tool.inputSchema, depth)}): ${output}`;
    if (signature.length <= maxLength) return signature;
  }
  return `${signature.slice(0, Math.max(0, maxLength - 1))}…`;
}
