import { z } from "zod";
import type { ArgSpec } from "../../src/plugins/args.js";
import { textEncodingSchema } from "../../src/plugins/encoding.js";

const path = z.string();
const content = z.string();
const bytes = z.instanceof(Uint8Array, { message: "expected a Uint8Array" });
const overwrite = z.boolean().optional();

function spec<T>(fn: string, params: readonly string[], schema: z.ZodType<T>): ArgSpec<T> {
  return { fn, params, schema };
}

export const writeFileArgs = spec(
  "writeFile",
  ["path", "content", "options?"],
  z.tuple([path, content, z.strictObject({ encoding: textEncodingSchema.optional(), overwrite }).optional()]),
);
export const appendFileArgs = spec(
  "appendFile",
  ["path", "content", "options?"],
  z.tuple([path, content, z.strictObject({ encoding: textEncodingSchema.optional() }).optional()]),
);
export const writeBinaryArgs = spec(
  "writeBinary",
  ["path", "data", "options?"],
  z.tuple([path, bytes, z.strictObject({ overwrite }).optional()]),
);
export const mkdirArgs = spec("mkdir", ["path"], z.tuple([path]));
export const removeArgs = spec(
  "remove",
  ["path", "options?"],
  z.tuple([path, z.strictObject({ recursive: z.boolean().optional() }).optional()]),
);
