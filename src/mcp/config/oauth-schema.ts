import { isAbsolute } from "node:path";
import { z } from "zod";
import { parseTemplate } from "./placeholders.js";

/** JWS algorithms a `private_key_jwt` assertion may be signed with (asymmetric keys only: a shared key is a client secret). */
export const JWT_SIGNING_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"] as const;

/** Whether a config string is only `${…}` references (no literal text that could be the secret itself). */
function onlyReferences(value: string): boolean {
  const parsed = parseTemplate(value);
  return parsed.ok && parsed.parts.length > 0 && parsed.parts.every((part) => part.kind !== "text");
}

/**
 * `"oauth"` on an http or sse server: the shape Claude Code writes, so its files import unchanged.
 * Everything is optional: without a clientId mcpvm uses a Client ID Metadata Document URL when the
 * authorization server supports one (clientMetadataUrl), else Dynamic Client Registration.
 * clientId and clientSecret may be `${VAR}` references (resolved at connect time, never stored).
 *
 * `"grant": "client_credentials"` is for unattended use (a CI job, a team's gateway): no browser,
 * the client authenticates itself with `clientSecret` (client_secret_basic) or `privateKey`
 * (private_key_jwt, RFC 7523). Its secret or key must be a `${VAR}` / `${input:id}` reference: a
 * credential that needs no person to use it is not kept in config.json in clear.
 */
export const mcpOAuthConfigSchema = z
  .object({
    /** "authorization_code" (the default: a person logs in with a browser) or "client_credentials" (machine to machine). */
    grant: z.enum(["authorization_code", "client_credentials"]).optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    /** client_credentials only: a PKCS#8 PEM private key (or a JWK as JSON), as a reference: `${MCP_CLIENT_KEY}`. */
    privateKey: z.string().min(1).optional(),
    /**
     * client_credentials only: instead of privateKey, the absolute path of a file holding the key (PEM or
     * JWK JSON), read each time a token is fetched (a rotated key is picked up); may use `${VAR}`.
     */
    privateKeyFile: z.string().min(1).optional(),
    /** client_credentials only: the JWS algorithm of the assertion; by default the key's own (RS256, ES256/384/512, EdDSA). */
    signingAlgorithm: z.enum(JWT_SIGNING_ALGORITHMS).optional(),
    /** client_credentials only: the authorization server (its issuer URL) the credentials may be sent to, and no other. */
    issuer: z.string().url().optional(),
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
    if (value.grant !== "client_credentials") {
      for (const key of ["privateKey", "privateKeyFile", "signingAlgorithm", "issuer"] as const) {
        if (value[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is a setting of "grant": "client_credentials"` });
      }
      return;
    }
    if (value.clientId === undefined) ctx.addIssue({ code: "custom", path: ["clientId"], message: '"grant": "client_credentials" needs the "clientId" the authorization server registered' });
    if ([value.clientSecret, value.privateKey, value.privateKeyFile].filter((given) => given !== undefined).length !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["clientSecret"],
        message: '"grant": "client_credentials" needs exactly one of "clientSecret" (client_secret_basic), "privateKey" or "privateKeyFile" (private_key_jwt)',
      });
    }
    if (value.signingAlgorithm !== undefined && value.privateKey === undefined && value.privateKeyFile === undefined) {
      ctx.addIssue({ code: "custom", path: ["signingAlgorithm"], message: '"signingAlgorithm" goes with "privateKey" or "privateKeyFile"' });
    }
    const file = value.privateKeyFile;
    if (file !== undefined && !file.includes("${") && !isAbsolute(file)) {
      ctx.addIssue({ code: "custom", path: ["privateKeyFile"], message: '"privateKeyFile" must be an absolute path (mcpvm may start in any folder)' });
    }
    for (const key of ["clientSecret", "privateKey"] as const) {
      const secret = value[key];
      if (secret !== undefined && !onlyReferences(secret)) {
        ctx.addIssue({ code: "custom", path: [key], message: `with "grant": "client_credentials", "${key}" must be a reference such as "\${MCP_${key === "privateKey" ? "CLIENT_KEY" : "CLIENT_SECRET"}}" (set in the environment), not the value itself` });
      }
    }
    for (const key of ["callbackPort", "clientMetadataUrl"] as const) {
      if (value[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is for browser logins; "grant": "client_credentials" has none` });
    }
  });

export type McpOAuthConfig = z.output<typeof mcpOAuthConfigSchema>;

/** The configured scopes as one space-separated string, or undefined. */
export function scopeString(scopes: McpOAuthConfig["scopes"]): string | undefined {
  if (scopes === undefined) return undefined;
  return (typeof scopes === "string" ? scopes.split(/\s+/) : scopes).filter((s) => s !== "").join(" ") || undefined;
}
