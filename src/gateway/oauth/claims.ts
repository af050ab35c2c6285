import { createHash } from "node:crypto";
import type { ClientScope } from "../clients/scope.js";
import type { OAuthGrant, OAuthSettings } from "./settings.js";

/** The name a token matching no configured client is known by (with `defaultClient`). */
export const DEFAULT_OAUTH_CLIENT = "oauth";

/** Session ids carry the client name in at most 128 characters (session-id.ts). */
const MAX_CLIENT_NAME = 128;

export type Claims = Readonly<Record<string, unknown>>;

/** The token's scopes: `scope` (RFC 9068, space-separated) or `scp` (string or array, as some IdPs write it). */
export function scopesOf(claims: Claims): string[] {
  const words = (value: unknown): string[] => {
    if (typeof value === "string") return value.split(" ").filter((s) => s !== "");
    if (Array.isArray(value)) return value.filter((s): s is string => typeof s === "string" && s !== "");
    return [];
  };
  return [...new Set([...words(claims.scope), ...words(claims.scp)])];
}

/** A claim by name or dotted path (`realm_access.roles`); an exact top-level name wins over a path. */
export function claimAt(claims: Claims, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let value: unknown = claims;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** One `match` entry: equal to a wanted value, or (arrays, `scope`) containing one. */
export function claimMatches(claims: Claims, path: string, wanted: string | readonly string[]): boolean {
  const values = typeof wanted === "string" ? [wanted] : wanted;
  const actual = path === "scope" || path === "scp" ? scopesOf(claims) : claimAt(claims, path);
  if (typeof actual === "string") return values.includes(actual);
  if (typeof actual === "number" || typeof actual === "boolean") return values.includes(String(actual));
  if (Array.isArray(actual)) return actual.some((item) => (typeof item === "string" || typeof item === "number") && values.includes(String(item)));
  return false;
}

/** Who the token speaks for: the user (`sub`), else the OAuth client (`client_id`, `azp`). */
export function principalOf(claims: Claims): string | undefined {
  for (const name of ["sub", "client_id", "azp"]) {
    const value = claims[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

const digestOf = (text: string, length: number): string => createHash("sha256").update(text, "utf8").digest("hex").slice(0, length);

/**
 * `<client>/<principal>`: the mapping the token matched and the person or service it speaks for,
 * so logs, traces and the activity log say who, and each person has their own rate bucket and
 * sessions. Characters outside a safe set become `_`, and then a digest of the subject as written
 * follows a `~` (outside the safe set, so no other subject reads the same): `a b` and `a_b` are two
 * people, and one must not be able to use the other's sessions. A principal too long for a session
 * id is shortened to a digest.
 */
export function attributedName(client: string, principal: string | undefined): string {
  if (principal === undefined) return client;
  const safe = principal.replace(/[^A-Za-z0-9._@:+-]/g, "_");
  let who = safe === principal ? safe : `${safe}~${digestOf(principal, 12)}`;
  if (client.length + 1 + who.length > MAX_CLIENT_NAME) who = `sha256-${digestOf(principal, 32)}`;
  return `${client}/${who}`;
}

export type ClientMatch = { readonly scope: ClientScope } | { readonly unmatched: true };

function scopeFor(name: string, grant: OAuthGrant, principal: string | undefined): ClientScope {
  return {
    name: attributedName(name, principal),
    via: "oauth",
    ...(principal === undefined ? {} : { subject: principal }),
    ...(grant.toolset === undefined ? {} : { toolset: grant.toolset }),
    ...(grant.servers === undefined ? {} : { servers: grant.servers }),
    ...(grant.rate === undefined ? {} : { rate: grant.rate }),
  };
}

/** The first configured client whose `match` the claims satisfy, else `defaultClient`, else unmatched. */
export function matchClient(settings: Pick<OAuthSettings, "clients" | "defaultClient">, claims: Claims): ClientMatch {
  const principal = principalOf(claims);
  for (const [name, client] of Object.entries(settings.clients)) {
    if (Object.entries(client.match).every(([path, wanted]) => claimMatches(claims, path, wanted))) return { scope: scopeFor(name, client, principal) };
  }
  if (settings.defaultClient !== undefined) return { scope: scopeFor(DEFAULT_OAUTH_CLIENT, settings.defaultClient, principal) };
  return { unmatched: true };
}
