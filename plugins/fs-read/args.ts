import { z } from "zod";
import type { ArgSpec } from "../../src/plugins/args.js";
import { textEncodingSchema } from "../../src/plugins/encoding.js";

const path = z.string();
const offset = z.number().int().nonnegative();
const readOptions = z.strictObject({ encoding: textEncodingSchema.optional() });
const chunkOptions = z.strictObject({ encoding: z.union([textEncodingSchema, z.literal("bytes")]).optional() });

function spec<T>(fn: string, params: readonly string[], schema: z.ZodType<T>): ArgSpec<T> {
  return { fn, params, schema };
}

export const readFileArgs = spec("readFile", ["path", "options?"], z.tuple([path, readOptions.optional()]));
export const readChunkArgs = spec(
  "readChunk",
  ["path", "offset", "length", "options?"],
  z.tuple([path, offset, z.number().int().positive(), chunkOptions.optional()]),
);
export const pathOnlyArgs = (fn: string) => spec(fn, ["path"], z.tuple([path]));
