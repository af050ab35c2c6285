import { jsonSchema, zodSchema, type Schema } from "ai";
import { z } from "zod";
import { explainUnknownKeys } from "../../util/zod-key-suggestions.js";
import { AgentToolError } from "./errors.js";

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
    // `additionalProperties: false` only forbids extra keys; the zod schema refuses any it is sent, by name.
    if (key === "additionalProperties" && value === false) continue;
    out[key] = key === "properties" && value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([name, s]) => [name, forModel(s)])) : forModel(value);
  }
  return out;
}

/**
 * A tool's input schema as the model receives it: the zod schema's JSON Schema without the
 * `$schema` line and the validation-only keywords, still validated by the zod schema. A key the tool
 * does not take is refused naming it, the closest known key and every key `tool` takes: the model
 * corrects the call instead of losing the argument silently.
 */
export function modelSchema<T>(tool: string, schema: z.ZodType<T>): Schema<T> {
  const base = zodSchema(schema);
  return jsonSchema<T>(async () => forModel(await base.jsonSchema) as Record<string, unknown>, {
    validate: async (value) => {
      const parsed = await schema.safeParseAsync(value);
      if (parsed.success) return { success: true, value: parsed.data };
      // Readable for the model (the SDK quotes the message; a ZodError it would dump as escaped JSON); the issues stay behind it for the transcript.
      const issues = explainUnknownKeys(parsed.error.issues, schema, tool);
      const text = issues.map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`).join("; ");
      return { success: false, error: new AgentToolError("INVALID_INPUT", text, { cause: new z.ZodError(issues) }) };
    },
  });
}
