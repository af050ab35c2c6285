import { jsonSchema, zodSchema, type Schema } from "ai";
import type { z } from "zod";

/**
 * A tool's input schema as the model receives it: the zod schema's JSON Schema without the
 * `$schema` line (about a dozen tokens per tool, sent with every step, and no provider needs it),
 * still validated by the zod schema.
 */
export function modelSchema<T>(schema: z.ZodType<T>): Schema<T> {
  const base = zodSchema(schema);
  return jsonSchema<T>(
    async () => {
      const { $schema: _dialect, ...rest } = await base.jsonSchema;
      return rest;
    },
    base.validate === undefined ? {} : { validate: base.validate },
  );
}
