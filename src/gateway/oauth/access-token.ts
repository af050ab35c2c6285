import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTVerifyGetKey, type ProtectedHeaderParameters } from "jose";
import { refusal, type AuthRefusal } from "../clients/authenticate.js";
import type { ClientScope } from "../clients/scope.js";
import { matchClient, scopesOf, type Claims } from "./claims.js";
import { IdentityProviderUnavailable } from "./issuer-keys.js";
import type { OAuthSettings } from "./settings.js";

export type Verified = { readonly scope: ClientScope; readonly claims: Claims; readonly expiresAt: number };

/** Three base64url segments, the first a JSON object: what a JWS compact serialisation looks like. */
export function looksLikeJwt(token: string): boolean {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token)) return false;
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}

/** RFC 8725 §3.11: media types compare case-insensitively, with or without "application/". */
function normalType(typ: unknown): string {
  return typeof typ === "string" ? typ.toLowerCase().replace(/^application\//, "") : "";
}

function audienceText(value: unknown): string {
  if (typeof value === "string") return `"${value}"`;
  if (Array.isArray(value)) return value.map((v) => `"${String(v)}"`).join(", ");
  return "none";
}

/**
 * Checks one access token as RFC 9068 and RFC 8725 say a resource server must: the algorithm from
 * our allow-list (checked against the header before any key is looked up, so `none` and HS*
 * never reach a key), the signature with the issuer's key named by kid, iss, aud (this gateway),
 * exp and nbf with a small leeway, then the required scopes and the client mapping. Every refusal
 * says what was wrong, never the token.
 */
export class AccessTokenVerifier {
  constructor(
    private readonly settings: Pick<OAuthSettings, "issuer" | "algorithms" | "clockToleranceSec" | "requiredScopes" | "clients" | "defaultClient" | "tokenType">,
    private readonly getKey: JWTVerifyGetKey,
    /** Accepted audiences: gateway.oauth.audience, else the resource URL (known once the gateway listens). */
    private readonly audiences: () => readonly string[],
  ) {}

  async verify(token: string): Promise<Verified | AuthRefusal> {
    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return refusal(401, "the access token is not a well-formed JWT", "invalid_token");
    }
    const algorithms: readonly string[] = this.settings.algorithms;
    if (typeof header.alg !== "string" || !algorithms.includes(header.alg)) {
      return refusal(401, `the access token is signed with alg "${String(header.alg)}", which this gateway does not accept (accepted: ${algorithms.join(", ")})`, "invalid_token");
    }
    const wanted = this.settings.tokenType;
    if (wanted !== undefined && normalType(header.typ) !== normalType(wanted)) {
      return refusal(401, `the token's typ is "${String(header.typ ?? "(none)")}", not "${wanted}": it is not an access token of this provider (an ID token?)`, "invalid_token");
    }
    const audience = [...this.audiences()];
    let claims: Claims;
    try {
      const verified = await jwtVerify(token, this.getKey, {
        issuer: this.settings.issuer,
        audience,
        algorithms: [...algorithms],
        clockTolerance: this.settings.clockToleranceSec,
        requiredClaims: ["iss", "aud", "exp"],
      });
      claims = verified.payload;
    } catch (error) {
      return this.describe(error, header, audience);
    }
    const have = scopesOf(claims);
    const missing = this.settings.requiredScopes.filter((s) => !have.includes(s));
    if (missing.length > 0) {
      return refusal(403, `the access token lacks the scope ${missing.join(" ")} this gateway requires`, "insufficient_scope", [...new Set([...this.settings.requiredScopes, ...have])].join(" "));
    }
    const matched = matchClient(this.settings, claims);
    if ("unmatched" in matched) {
      return refusal(403, "the access token is valid but its claims match no client in gateway.oauth.clients (and there is no defaultClient)", "insufficient_scope");
    }
    const expiresAt = typeof claims.exp === "number" ? claims.exp * 1000 : 0;
    const acceptedUntil = expiresAt + this.settings.clockToleranceSec * 1000;
    return { scope: { ...matched.scope, acceptedUntil }, claims, expiresAt };
  }

  private describe(error: unknown, header: ProtectedHeaderParameters, audience: readonly string[]): AuthRefusal {
    const kid = typeof header.kid === "string" ? `"${header.kid}"` : "(no kid)";
    if (error instanceof IdentityProviderUnavailable) return refusal(503, `the identity provider cannot be reached to check the token: ${error.message}`);
    if (error instanceof joseErrors.JWKSTimeout) return refusal(503, "the identity provider's key set did not answer in time");
    if (error instanceof joseErrors.JWTExpired) return refusal(401, `the access token expired at ${new Date(Number(error.payload.exp) * 1000).toISOString()}`, "invalid_token");
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      const payload = error.payload;
      if (error.reason === "missing") return refusal(401, `the access token has no "${error.claim}" claim`, "invalid_token");
      if (error.claim === "iss") return refusal(401, `the access token was issued by "${String(payload.iss)}", not by this gateway's issuer "${this.settings.issuer}"`, "invalid_token");
      if (error.claim === "aud") return refusal(401, `the access token is for audience ${audienceText(payload.aud)}, not this gateway (${audience.map((a) => `"${a}"`).join(", ")})`, "invalid_token");
      if (error.claim === "nbf") return refusal(401, `the access token is not valid before ${new Date(Number(payload.nbf) * 1000).toISOString()}`, "invalid_token");
      return refusal(401, `the access token's "${error.claim}" claim is not acceptable (${error.message})`, "invalid_token");
    }
    if (error instanceof joseErrors.JWKSNoMatchingKey) return refusal(401, `the access token is signed with key ${kid}, which the issuer's key set does not hold`, "invalid_token");
    if (error instanceof joseErrors.JWKSMultipleMatchingKeys) return refusal(401, `the access token names no kid the issuer's key set can tell apart (${kid})`, "invalid_token");
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) return refusal(401, `the access token's signature does not verify with the issuer's key ${kid}`, "invalid_token");
    if (error instanceof joseErrors.JOSEAlgNotAllowed) return refusal(401, `the access token's alg "${String(header.alg)}" is not accepted`, "invalid_token");
    if (error instanceof joseErrors.JWKSInvalid) return refusal(503, "the identity provider's key set is not a valid JWKS");
    // jose's generic error is only thrown for the key set's HTTP response (not 200, not JSON).
    if (error instanceof joseErrors.JOSEError && error.code === "ERR_JOSE_GENERIC") return refusal(503, `the identity provider's key set could not be read: ${error.message}`);
    if (error instanceof joseErrors.JOSEError) return refusal(401, `the access token is not valid: ${error.message}`, "invalid_token");
    // fetch failures of the key set (connection refused, DNS) surface as plain errors.
    return refusal(503, `the identity provider's key set could not be read: ${(error as Error).message}`);
  }
}
