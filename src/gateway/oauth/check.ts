import type { AuthRefusal } from "../clients/authenticate.js";
import type { ClientScope } from "../clients/scope.js";
import { GatewayError } from "../errors.js";
import { AccessTokenVerifier } from "./access-token.js";
import { scopesOf } from "./claims.js";
import { IdentityProviderUnavailable, IssuerKeys } from "./issuer-keys.js";
import { metadataUrlFor, protectedResourceMetadata } from "./metadata.js";
import type { OAuthSettings } from "./settings.js";

export type TokenCheck =
  | { readonly accepted: true; readonly client: ClientScope; readonly scopes: readonly string[]; readonly expiresAt: string | undefined }
  | { readonly accepted: false; readonly status: AuthRefusal["status"]; readonly error: AuthRefusal["error"]; readonly reason: string };

export interface OAuthCheck {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly kids: readonly string[];
  readonly resource: string;
  readonly metadataUrl: string;
  readonly metadata: Record<string, unknown>;
  readonly token?: TokenCheck;
}

/**
 * What `mcpvm gateway oauth check` reports: the identity provider's keys as the gateway would find
 * them, the metadata it would publish, and (given one) what a token would be let do, or why not —
 * by the very code the gateway runs, so "why is my token refused?" has an answer before a client asks.
 */
export async function checkOAuth(settings: OAuthSettings, resource: string, token?: string): Promise<OAuthCheck> {
  const keys = new IssuerKeys(settings);
  let found: { jwksUri: string; kids: string[] };
  try {
    found = await keys.warm();
  } catch (error) {
    if (!(error instanceof IdentityProviderUnavailable)) throw error;
    throw new GatewayError("GATEWAY_OAUTH_UNAVAILABLE", `The identity provider ${settings.issuer} cannot be used: ${error.message}.`, { data: { issuer: settings.issuer } });
  }
  const audiences = settings.audience === undefined ? [resource] : typeof settings.audience === "string" ? [settings.audience] : settings.audience;
  const report: OAuthCheck = {
    issuer: settings.issuer,
    jwksUri: found.jwksUri,
    kids: found.kids,
    resource,
    metadataUrl: metadataUrlFor(resource),
    metadata: protectedResourceMetadata(settings, resource),
  };
  if (token === undefined) return report;
  const verified = await new AccessTokenVerifier(settings, keys.getKey, () => audiences).verify(token);
  if ("refused" in verified) return { ...report, token: { accepted: false, status: verified.status, error: verified.error, reason: verified.description } };
  // The report says when the token expires in words; the scope's timer field is the server's business.
  const { acceptedUntil: _timer, ...client } = verified.scope;
  return {
    ...report,
    token: { accepted: true, client, scopes: scopesOf(verified.claims), expiresAt: verified.expiresAt === 0 ? undefined : new Date(verified.expiresAt).toISOString() },
  };
}
