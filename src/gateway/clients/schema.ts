import { z } from "zod";

/** Client names: what logs, the request log and `token list` show; no dots or spaces. */
export const CLIENT_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
export const clientNameSchema = z.string().regex(CLIENT_NAME_PATTERN, "client names are 1-64 letters, digits, _ or -, starting with a letter or digit");

/** `50/s`, `600/m`: at most `count` requests per window, in bursts of up to `count`. */
export const rateSchema = z.object({ count: z.number().int().min(1).max(1_000_000), perMs: z.union([z.literal(1_000), z.literal(60_000)]) }).strict();
export type Rate = z.infer<typeof rateSchema>;

export const storedClientSchema = z
  .object({
    /** SHA-256 of the token, hex. The token is 256 random bits, so a fast hash is enough (no dictionary to guess from). */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** The token's first characters, so a person can tell which one a client holds. */
    prefix: z.string().max(16),
    createdAt: z.string(),
    toolset: z.string().optional(),
    servers: z.array(z.string().min(1)).min(1).optional(),
    rate: rateSchema.optional(),
  })
  .strict();
export type StoredClient = z.infer<typeof storedClientSchema>;

export const clientFileSchema = z
  .object({
    version: z.literal(1),
    clients: z.record(clientNameSchema, storedClientSchema),
  })
  .strict();
export type ClientFile = z.infer<typeof clientFileSchema>;
