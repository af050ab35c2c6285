import { z } from "zod";
import type { ArgSpec } from "../../src/plugins/args.js";

// Set by the plugin itself: framing and encoding must match what it sends and can read.
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "expect", "accept-encoding"]);

const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "not a valid header name")
  .refine((name) => !RESERVED_HEADERS.has(name.toLowerCase()), "this header is set by the fetch plugin and cannot be given");
const headerValue = z.string().regex(/^[\t\x20-\x7e\x80-\xff]*$/, "header values cannot contain line breaks or control characters");

const common = {
  headers: z.record(headerName, headerValue).optional(),
  followRedirects: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
};
const withBody = z.strictObject({ ...common, responseType: z.enum(["text", "json", "binary"]).optional() });
const url = z.string();

export type RequestOptions = z.infer<typeof withBody>;

function spec<T>(fn: string, params: readonly string[], schema: z.ZodType<T>): ArgSpec<T> {
  return { fn, params, schema };
}

export const getArgs = spec("get", ["url", "options?"], z.tuple([url, withBody.optional()]));
export const headArgs = spec("head", ["url", "options?"], z.tuple([url, z.strictObject(common).optional()]));
export const postArgs = spec("post", ["url", "body?", "options?"], z.tuple([url, z.unknown().optional(), withBody.optional()]));
