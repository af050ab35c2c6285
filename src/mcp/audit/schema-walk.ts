import type { FieldKind } from "./types.js";

/** One screened string inside a tool definition. */
export interface SchemaField {
  readonly field: string;
  readonly jsonPath: string;
  readonly text: string;
  readonly kind: FieldKind;
}

/** One declared property, for the parameter-level rules. */
export interface SchemaProperty {
  readonly name: string;
  readonly jsonPath: string;
  readonly description: string;
  /** Declared as a string, or untyped: something free text could be put into. */
  readonly freeText: boolean;
}

export interface SchemaWalk {
  readonly fields: SchemaField[];
  readonly properties: SchemaProperty[];
  /** Set when the depth or node bound stopped the walk: the rest was not screened. */
  truncated: boolean;
}

const MAX_DEPTH = 64;
// Real schemas have hundreds of nodes; every string found is screened by every rule, so this bounds the time per tool.
const MAX_NODES = 5_000;

export function jsonPathKey(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SUBSCHEMA_KEYS = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"];
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const VALUE_KEYS = ["default", "const", "enum", "examples"];
const PROSE_KEYS = ["description", "title", "$comment"];

/**
 * Every string a JSON Schema shows a model — names, descriptions, titles, defaults, enums,
 * examples — through properties, items, combinators, $defs and additionalProperties. Bounded in
 * depth and node count so a hostile schema cannot make the auditor spin.
 */
export function walkSchema(schema: unknown, rootPath: string): SchemaWalk {
  const out: SchemaWalk = { fields: [], properties: [], truncated: false };
  let nodes = 0;
  const beyondBounds = (depth: number): boolean => {
    if (++nodes <= MAX_NODES && depth <= MAX_DEPTH) return false;
    out.truncated = true;
    return true;
  };

  const visitValue = (value: unknown, path: string, field: string, owner: string | undefined, depth: number): void => {
    if (beyondBounds(depth)) return;
    if (typeof value === "string") out.fields.push({ field, jsonPath: path, text: value, kind: { kind: "value", key: owner } });
    else if (Array.isArray(value)) value.forEach((v, i) => visitValue(v, jsonPathKey(path, i), field, owner, depth + 1));
    else if (isRecord(value)) for (const [k, v] of Object.entries(value)) visitValue(v, jsonPathKey(path, k), field, k, depth + 1);
  };

  const visit = (node: unknown, path: string, owner: string | undefined, depth: number): void => {
    if (!isRecord(node) || beyondBounds(depth)) return;
    for (const key of PROSE_KEYS) {
      const text = node[key];
      if (typeof text === "string") out.fields.push({ field: `schema-${key.replace("$", "")}`, jsonPath: jsonPathKey(path, key), text, kind: { kind: "prose" } });
    }
    for (const key of VALUE_KEYS) if (key in node) visitValue(node[key], jsonPathKey(path, key), key, owner, depth + 1);

    for (const mapKey of SUBSCHEMA_MAPS) {
      const map = node[mapKey];
      if (!isRecord(map)) continue;
      const mapPath = jsonPathKey(path, mapKey);
      for (const [name, child] of Object.entries(map)) {
        // A map with 100 000 entries is stopped here, not only at its children.
        if (beyondBounds(depth + 1)) break;
        const childPath = jsonPathKey(mapPath, name);
        if (mapKey === "properties" || mapKey === "patternProperties") {
          out.fields.push({ field: "parameter", jsonPath: childPath, text: name, kind: { kind: "identifier" } });
          const description = isRecord(child) ? [child.title, child.description].filter((t) => typeof t === "string").join(" ") : "";
          const type = isRecord(child) ? child.type : undefined;
          // A fixed set of choices (enum, const) carries nothing the model writes in.
          const fixed = isRecord(child) && (Array.isArray(child.enum) || "const" in child);
          const freeText = !fixed && (type === undefined || type === "string" || (Array.isArray(type) && type.includes("string")) || type === "object");
          out.properties.push({ name, jsonPath: childPath, description, freeText });
        }
        visit(child, childPath, mapKey === "properties" ? name : owner, depth + 1);
      }
    }
    for (const key of SUBSCHEMA_KEYS) if (isRecord(node[key])) visit(node[key], jsonPathKey(path, key), owner, depth + 1);
    for (const key of SUBSCHEMA_LISTS) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((child, i) => visit(child, jsonPathKey(jsonPathKey(path, key), i), owner, depth + 1));
    }
  };

  visit(schema, rootPath, undefined, 0);
  return out;
}
