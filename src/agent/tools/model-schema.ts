import { jsonSchema, zodSchema, type Schema } from "ai";
import type { z } from "zod";

/**
 * Validation-only keywords the model does not need to write a correct call: a call that breaks one
 * is refused by the zod schema with a message naming it, and the model corrects itself. Each costs
 * tokens in every step's definitions (issue 15).
 */
const VALIDATION_ONLY = new Set(["$schema", "minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum"]);

function forModel(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forModel);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (VALIDATION_ONLY.has(key)) continue;
    // `additionalProperties: false` only forbids extra keys; the zod schema drops any it is sent.
    if (key === "additionalProperties" && value === false) continue;
    out[key] = key === "properties" && value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([name, s]) => [name, forModel(s)])) : forModel(value);
  }
  return out;
}

/**
 * A tool's input schema as the model receives it: the zod schema's JSON Schema without the
 * `$schema` line and the validation-only keywords, still validated by the zod schema.
 */
export function modelSchema<T>(schema: z.ZodType<T>): Schema<T> {
  const base = zodSchema(schema);
  return jsonSchema<T>(async () => forModel(await base.jsonSchema) as Record<string, unknown>, base.validate === undefined ? {} : { validate: base.validate });
}
