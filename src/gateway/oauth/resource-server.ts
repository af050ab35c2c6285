import type { IncomingMessage } from "node:http";
import { GatewayError } from "../errors.js";
import { bearerChallenge, bearerOf, isRefusal, refusal, type AuthRefusal, type AuthResult, type RequestAuthenticator } from "../clients/authenticate.js";
import type { ClientScope } from "../clients/scope.js";
import { AccessTokenVerifier, looksLikeJwt } from "./access-token.js";
import { IssuerKeys } from "./issuer-keys.js";
import { VerifiedTokenCache } from "./token-cache.js";
import { isMetadataPath, metadataUrlFor, protectedResourceMetadata } from "./metadata.js";
import type { OAuthSettings } from "./settings.js";

export interface ResourceServerOptions {
  readonly settings: OAuthSettings;
  /** The gateway token and named client tokens, which keep working beside access tokens. */
  readonly tokens: RequestAuthenticator;
}

/**
 * The gateway as an OAuth 2.1 resource server: access tokens from the configured identity
 * provider (JWTs checked by AccessTokenVerifier and mapped to a client's allow-lists), beside the
 * gateway token and named client tokens. With it configured every request must authenticate (no
 * anonymous access), refusals carry RFC 6750 errors and point at the RFC 9728 metadata this
 * serves, so an MCP client can find the identity provider and log in by itself.
 */
export class OAuthResourceServer implements RequestAuthenticator {
  readonly keys: IssuerKeys;
  private readonly verifier: AccessTokenVerifier;
  private resourceUrl: string | undefined;
  private readonly verified: VerifiedTokenCache<ClientScope>;

  constructor(private readonly options: ResourceServerOptions) {
    const { settings } = options;
    this.resourceUrl = settings.resource;
    this.keys = new IssuerKeys(settings);
    const audiences = settings.audience === undefined ? undefined : typeof settings.audience === "string" ? [settings.audience] : settings.audience;
    this.verified = new VerifiedTokenCache({ maxEntries: settings.tokenCacheEntries, maxAgeMs: settings.tokenCacheMaxAgeMs });
    this.verifier = new AccessTokenVerifier(settings, this.keys.getKey, () => audiences ?? [this.resource()]);
  }

  get hint(): string {
    return `send Authorization: Bearer <access token from ${this.options.settings.issuer}> (its metadata: ${metadataUrlFor(this.resource())}), or a gateway or client token`;
  }

  /** This gateway's resource URL: configured, else the URL it listens on. */
  resource(): string {
    if (this.resourceUrl === undefined) {
      throw new GatewayError("GATEWAY_CONFIG_INVALID", "gateway.oauth.resource is not set and the gateway is not listening yet", {});
    }
    return this.resourceUrl;
  }

  listening(url: string): void {
    this.resourceUrl ??= url;
  }

  async clientCredentials(): Promise<ReadonlySet<string>> {
    return (await this.options.tokens.clientCredentials?.()) ?? new Set();
  }

  async authenticate(request: IncomingMessage): Promise<AuthResult> {
    if (request.headers.authorization === undefined) return refusal(401, "no bearer token");
    const bearer = bearerOf(request);
    if (bearer === undefined) return refusal(400, "the Authorization header is not `Bearer <token>`", "invalid_request");
    // A gateway or client token first: cheap (digests), and a --token may itself contain dots.
    const byToken = await this.options.tokens.authenticate(request);
    if (!isRefusal(byToken) && byToken.via !== "none") return byToken;
    if (!looksLikeJwt(bearer)) return refusal(401, "the bearer token is not an access token from the identity provider, the gateway token or a client token", "invalid_token");
    const cached = this.verified.get(bearer);
    if (cached !== undefined) return cached;
    const verified = await this.verifier.verify(bearer);
    if ("refused" in verified) return verified;
    this.verified.set(bearer, verified.scope, verified.expiresAt);
    return verified.scope;
  }

  challenge(refused: AuthRefusal): string {
    return bearerChallenge(refused, { resource_metadata: metadataUrlFor(this.resource()) });
  }

  publicDocument(path: string): Record<string, unknown> | undefined {
    const resource = this.resource();
    return isMetadataPath(path, resource) ? protectedResourceMetadata(this.options.settings, resource) : undefined;
  }
}
