import { z } from "zod";

/**
 * `"oauth"` on an http or sse server: the shape Claude Code writes, so its files import unchanged.
 * Everything is optional: without a clientId mcpvm uses a Client ID Metadata Document URL when the
 * authorization server supports one (clientMetadataUrl), else Dynamic Client Registration.
 * clientId and clientSecret may be `${VAR}` references (resolved at connect time, never stored).
 */
export const mcpOAuthConfigSchema = z
  .object({
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    /** Scopes to ask for instead of the ones the server advertises: "a b" or ["a", "b"]. */
    scopes: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** The port of the loopback redirect listener (for a client registered with a fixed redirect URI). */
    callbackPort: z.number().int().min(1).max(65_535).optional(),
    /** An https URL of a Client ID Metadata Document that names mcpvm's redirect URIs. */
    clientMetadataUrl: z
      .string()
      .url()
      .refine((value) => value.startsWith("https://") && new URL(value).pathname !== "/", "must be an https URL with a path (a Client ID Metadata Document)")
      .optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.clientSecret !== undefined && value.clientId === undefined) ctx.addIssue({ code: "custom", path: ["clientSecret"], message: 'a clientSecret needs a "clientId"' });
  });

export type McpOAuthConfig = z.output<typeof mcpOAuthConfigSchema>;

/** The configured scopes as one space-separated string, or undefined. */
export function scopeString(scopes: McpOAuthConfig["scopes"]): string | undefined {
  if (scopes === undefined) return undefined;
  return (typeof scopes === "string" ? scopes.split(/\s+/) : scopes).filter((s) => s !== "").join(" ") || undefined;
}
