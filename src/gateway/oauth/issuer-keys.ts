import { createRemoteJWKSet, errors as joseErrors, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { errorMessage } from "../../util/errors.js";
import { isSecureUrl, type OAuthSettings } from "./settings.js";

/** The identity provider could not be asked (its metadata or key set): a 503 to the client, not a 401. */
export class IdentityProviderUnavailable extends Error {
  override readonly name = "IdentityProviderUnavailable";
}

const issuerMetadataSchema = z.object({ issuer: z.string(), jwks_uri: z.string().url() }).loose();

/**
 * Where RFC 8414 and OpenID Connect Discovery put an issuer's metadata: the well-known segment
 * inserted before the issuer's path (RFC 8414 §3.1), then OpenID's appended form.
 */
export function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  const at = (wellKnown: string): URL => new URL(`${url.origin}/.well-known/${wellKnown}${path}`);
  const urls = [at("oauth-authorization-server"), at("openid-configuration"), new URL(`${url.origin}${path}/.well-known/openid-configuration`)];
  return urls.filter((candidate, i) => urls.findIndex((u) => u.href === candidate.href) === i);
}

/** Failed discoveries are not retried sooner than this, so a flood of tokens does not become a flood at the IdP. */
const DISCOVERY_RETRY_MS = 5_000;
/** Likewise for a key set that could not be read. */
const KEYS_RETRY_MS = 5_000;

/**
 * The identity provider's signing keys: the key set's URL (configured, or discovered once from the
 * issuer's metadata, whose `issuer` must be the configured one), then jose's remote key set,
 * which caches the keys, re-reads them when a token names a kid it does not know (at most once per
 * cooldown) and when they are older than the cache age.
 */
export class IssuerKeys {
  private keySet: ReturnType<typeof createRemoteJWKSet> | undefined;
  private discovering: Promise<URL> | undefined;
  private failedAt = 0;
  private lastFailure = "";

  constructor(
    private readonly settings: Pick<OAuthSettings, "issuer" | "jwksUri" | "jwksCacheMaxAgeMs" | "jwksCooldownMs" | "httpTimeoutMs">,
    private readonly now: () => number = Date.now,
  ) {}

  private keysFailedAt = 0;
  private keysFailure = "";

  /**
   * For jose's jwtVerify: the key a token's header names. While the key set cannot be read, a
   * token whose kid is not cached fails at once for a few seconds after a failed read, instead of
   * each such token sending another request to a provider that is down (jose's cooldown counts
   * from the last *successful* read only). Cached keys keep working throughout.
   */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    const set = await this.resolveKeySet();
    const cached = set.jwks()?.keys ?? [];
    const known = cached.some((key) => header.kid === undefined || key.kid === header.kid);
    if (!known && this.keysFailedAt !== 0 && this.now() - this.keysFailedAt < KEYS_RETRY_MS) {
      throw new IdentityProviderUnavailable(`the key set at ${this.jwksUrl ?? "?"} could not be read ${Math.round((this.now() - this.keysFailedAt) / 1000)} s ago (${this.keysFailure}); retried after ${KEYS_RETRY_MS / 1000} s`);
    }
    try {
      return await set(header, token);
    } catch (error) {
      // Failures to read the set (network, HTTP status, not JSON, timeout); not a token's own faults.
      if (!(error instanceof joseErrors.JOSEError) || error instanceof joseErrors.JWKSTimeout || error.code === "ERR_JOSE_GENERIC") {
        this.keysFailedAt = this.now();
        this.keysFailure = errorMessage(error);
      }
      throw error;
    }
  };

  /**
   * Reads the key set now (at start, or for `gateway oauth check`), so a misconfigured issuer shows
   * before the first client does: its URL and the kids it holds.
   */
  async warm(): Promise<{ jwksUri: string; kids: string[] }> {
    const set = await this.resolveKeySet();
    if (!set.fresh) {
      await set.reload().catch((error: unknown) => {
        this.keysFailedAt = this.now();
        this.keysFailure = errorMessage(error);
        throw new IdentityProviderUnavailable(`the key set at ${this.jwksUrl ?? "?"} could not be read: ${errorMessage(error)}`);
      });
    }
    const kids = (set.jwks()?.keys ?? []).map((key) => key.kid ?? "(no kid)");
    return { jwksUri: this.jwksUrl ?? "", kids };
  }

  private jwksUrl: string | undefined;

  private async resolveKeySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.keySet !== undefined) return this.keySet;
    const url = this.settings.jwksUri !== undefined ? new URL(this.settings.jwksUri) : await this.discover();
    this.jwksUrl = url.href;
    this.keySet ??= createRemoteJWKSet(url, {
      timeoutDuration: this.settings.httpTimeoutMs,
      cooldownDuration: this.settings.jwksCooldownMs,
      cacheMaxAge: this.settings.jwksCacheMaxAgeMs,
      headers: { accept: "application/jwk-set+json, application/json" },
    });
    return this.keySet;
  }

  private discover(): Promise<URL> {
    if (this.failedAt !== 0 && this.now() - this.failedAt < DISCOVERY_RETRY_MS) {
      return Promise.reject(new IdentityProviderUnavailable(this.lastFailure));
    }
    this.discovering ??= this.fetchMetadata().then(
      (url) => url,
      (error: unknown) => {
        this.failedAt = this.now();
        this.lastFailure = errorMessage(error);
        this.discovering = undefined;
        throw error instanceof IdentityProviderUnavailable ? error : new IdentityProviderUnavailable(this.lastFailure);
      },
    );
    return this.discovering;
  }

  private async fetchMetadata(): Promise<URL> {
    const problems: string[] = [];
    for (const url of metadataUrls(this.settings.issuer)) {
      let response: Response;
      try {
        response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(this.settings.httpTimeoutMs), redirect: "error" });
      } catch (error) {
        problems.push(`${url.href}: ${errorMessage(error)}`);
        continue;
      }
      if (response.status === 404) {
        await response.body?.cancel();
        problems.push(`${url.href}: 404`);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new IdentityProviderUnavailable(`the issuer's metadata at ${url.href} answered HTTP ${response.status}`);
      }
      const parsed = issuerMetadataSchema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) throw new IdentityProviderUnavailable(`the issuer's metadata at ${url.href} has no valid jwks_uri`);
      // RFC 8414 §3.3: metadata naming another issuer must not be used (it could point at anyone's keys).
      if (parsed.data.issuer !== this.settings.issuer) {
        throw new IdentityProviderUnavailable(`the metadata at ${url.href} is for issuer "${parsed.data.issuer}", not the configured "${this.settings.issuer}"; set gateway.oauth.issuer to the exact value`);
      }
      if (!isSecureUrl(parsed.data.jwks_uri)) throw new IdentityProviderUnavailable(`the issuer's jwks_uri ${parsed.data.jwks_uri} is not https (http only on loopback)`);
      return new URL(parsed.data.jwks_uri);
    }
    throw new IdentityProviderUnavailable(`no metadata found for issuer ${this.settings.issuer} (${problems.join("; ")}); set gateway.oauth.jwksUri`);
  }
}
