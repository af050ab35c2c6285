import { z } from "zod";
import { isLoopback } from "../address.js";
import { clientNameSchema } from "../clients/schema.js";
import { parseRate } from "../clients/scope.js";

/**
 * Asymmetric signature algorithms only: an access token is checked with the identity provider's
 * public keys, so `none` and the HS* family (a shared secret, or worse a public key used as one)
 * cannot be configured at all.
 */
export const ACCEPTED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"] as const;
export type AcceptedAlgorithm = (typeof ACCEPTED_ALGORITHMS)[number];

/** A claim name or a dotted path into nested claims (`realm_access.roles`). */
const claimPathSchema = z.string().regex(/^[A-Za-z0-9_:$-]+(\.[A-Za-z0-9_:$-]+)*$/, "a claim name, or a dotted path such as realm_access.roles");
const scopeTokenSchema = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, "a scope is one word of printable characters (no spaces, quotes or backslashes)");

/** https, or http on a loopback address (an identity provider on this machine, as in tests). */
export function isSecureUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname.replace(/^\[|\]$/g, "")));
  } catch {
    return false;
  }
}
const secureUrlSchema = z.string().refine(isSecureUrl, "an https:// URL (http:// only on a loopback address)");

const rateTextSchema = z.string().transform((text, ctx) => {
  try {
    return parseRate(text);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: (error as Error).message });
    return z.NEVER;
  }
});

/** What a matched token may use: the allow-lists a named client token carries. */
const grantShape = {
  toolset: z.string().min(1).optional(),
  servers: z.array(z.string().min(1)).min(1).optional(),
  /** `50/s`, `600/m`, per person (each subject has its own bucket). */
  rate: rateTextSchema.optional(),
};

export const oauthGrantSchema = z.object(grantShape).strict();

export const oauthClientSchema = z
  .object({
    /**
     * Claims a token must carry to be this client, all of them: a claim equal to the value (or to
     * one of the values); an array claim (groups, roles) or `scope` containing it.
     */
    match: z.record(claimPathSchema, z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).refine((m) => Object.keys(m).length > 0, "match names at least one claim"),
    ...grantShape,
  })
  .strict();

export const oauthSettingsSchema = z
  .object({
    /** The identity provider's issuer URL, exactly as its tokens' `iss` says it. */
    issuer: secureUrlSchema,
    /** Its key set; by default found in the issuer's metadata (RFC 8414, then OpenID discovery). */
    jwksUri: secureUrlSchema.optional(),
    /**
     * This gateway's resource URL as clients reach it (https://mcp.example.com/mcp): what the
     * metadata publishes and the audience tokens must carry. Defaults to the listening URL, which
     * is only right on loopback; required when the gateway listens on another address.
     */
    resource: secureUrlSchema.optional(),
    /** Audiences to accept instead of the resource URL (an IdP that cannot issue resource-bound tokens). */
    audience: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    algorithms: z.array(z.enum(ACCEPTED_ALGORITHMS)).min(1).default(["RS256", "PS256", "ES256", "EdDSA"]),
    /**
     * The `typ` header access tokens must have, e.g. "at+jwt" (RFC 9068), so an ID token of the
     * same provider is never taken for an access token; unset, since many providers write "JWT".
     */
    tokenType: z.string().regex(/^[A-Za-z0-9.+/-]{1,64}$/).optional(),
    /** Scopes every token needs (403 insufficient_scope otherwise). */
    requiredScopes: z.array(scopeTokenSchema).default([]),
    /** Published in the metadata (scopes_supported); defaults to requiredScopes. */
    scopesSupported: z.array(scopeTokenSchema).optional(),
    /** Leeway for exp / nbf / iat between the IdP's clock and ours. */
    clockToleranceSec: z.number().int().min(0).max(300).default(30),
    /** Keys are re-read this often even when every kid is known. */
    jwksCacheMaxAgeMs: z.number().int().min(1_000).max(86_400_000).default(600_000),
    /** An unknown kid re-reads the key set at most once per this (tokens with made-up kids cannot hammer the IdP). */
    jwksCooldownMs: z.number().int().min(0).max(3_600_000).default(30_000),
    /** Accepted tokens remembered (by digest) so a repeated token is not checked again: how many (0: none) … */
    tokenCacheEntries: z.number().int().min(0).max(100_000).default(10_000),
    /** … and for at most how long (never past the token's exp); also how long a key removed from the IdP's set keeps working. */
    tokenCacheMaxAgeMs: z.number().int().min(0).max(3_600_000).default(60_000),
    /** Each metadata or key-set request to the IdP. */
    httpTimeoutMs: z.number().int().min(100).max(60_000).default(5_000),
    /** Token claims → the client a request counts as; the first match in the order written wins. */
    clients: z.record(clientNameSchema, oauthClientSchema).default({}),
    /** What a valid token matching no client may use; absent: such tokens are refused (403). */
    defaultClient: oauthGrantSchema.optional(),
    /** The human-readable name in the metadata. */
    resourceName: z.string().min(1).max(200).optional(),
  })
  .strict();

export type OAuthSettings = z.infer<typeof oauthSettingsSchema>;
export type OAuthClient = z.infer<typeof oauthClientSchema>;
export type OAuthGrant = z.infer<typeof oauthGrantSchema>;
