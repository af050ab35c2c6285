import type { AddClientAuthentication, OAuthClientInformationContext, OAuthClientMetadata, OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";
import type { LoginDriver } from "../client-manager/options.js";
import type { McpResolvedOAuth } from "../types.js";
import { boundOAuthResponses, oauthTypeError } from "./bounded-fetch.js";
import type { McpvmError } from "../../util/errors.js";
import { McpOAuthError } from "./errors.js";
import { signingKey, signingKeyFromFile, type SigningKey } from "./signing-key.js";
import type { FetchLike } from "./refresh-lock.js";
import { loginMatches, type OAuthTokenStore, type ServerLogin, type StoredTokens } from "./token-store.js";

/** An access token this close to its expiry is fetched anew before it is sent. */
const REFETCH_AHEAD_MS = 60_000;

export interface ClientCredentialsOptions {
  readonly server: string;
  readonly url: string;
  /** The resolved `oauth` block, with grant "client_credentials" and a clientId (the schema guarantees both). */
  readonly config: McpResolvedOAuth & { readonly clientId: string };
  readonly store: OAuthTokenStore;
  readonly addSecrets: (values: readonly string[]) => void;
  readonly now?: () => number;
}

/**
 * The client credentials grant (RFC 6749 §4.4) for a server used unattended (a CI job, a team's
 * gateway): no browser and no refresh token; the client authenticates itself at the token endpoint
 * with its secret (client_secret_basic) or a signed assertion (private_key_jwt, RFC 7523, signed by
 * the SDK's createPrivateKeyJwtAuth), and fetches a new access token when the one it has expires or
 * is refused. The SDK runs the flow (an OAuthClientProvider without a redirect URL is its
 * non-interactive flow); this class keeps the tokens in oauth-tokens.json like any login, bound to
 * the URL and client id, and binds the credentials to one authorization server (SEP-2352): the
 * configured `issuer`, else the first one they were used with.
 */
export class ClientCredentialsLogin implements LoginDriver, OAuthClientProvider {
  private record: ServerLogin | undefined;
  private key: SigningKey | undefined;
  private fetching: Promise<void> | undefined;
  /** The token endpoint (origin and path) that issued the last token, named when the server refuses that token. */
  private issuedBy: string | undefined;
  readonly addClientAuthentication: AddClientAuthentication | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ClientCredentialsOptions) {
    this.now = options.now ?? Date.now;
    // The key is read on first use (prepare() checks it, with a message naming the setting).
    this.addClientAuthentication = !this.usesKey()
      ? undefined
      : async (headers, params, url, metadata) => {
          const { createPrivateKeyJwtAuth } = await import("@modelcontextprotocol/client");
          const key = await this.signingKey();
          const sign = createPrivateKeyJwtAuth({ issuer: options.config.clientId, subject: options.config.clientId, privateKey: key.key, alg: key.algorithm });
          await sign(headers, params, url, metadata);
        };
  }

  get provider(): OAuthClientProvider {
    return this;
  }

  async prepare(): Promise<void> {
    if (this.usesKey()) await this.signingKey();
    const stored = await this.options.store.get(this.options.server);
    this.record = loginMatches(stored, this.options.url, this.options.config.clientId) ? stored : undefined;
    const tokens = this.record?.tokens;
    if (tokens !== undefined) this.options.addSecrets([tokens.access_token]);
  }

  beginOperation(): void {}

  currentTokens(): StoredTokens | undefined {
    return this.record?.tokens;
  }

  /** Nothing to open: the token request needs no person. */
  completeLogin(): Promise<URLSearchParams | undefined> {
    return Promise.resolve(undefined);
  }

  /** OAuth answers are capped (bounded-fetch.ts); a refused token request says which setting to check. */
  wrapFetch(inner: FetchLike): FetchLike {
    const bounded = boundOAuthResponses(inner, this.options.server, this.options.url);
    return async (input, init) => {
      const response = await bounded(input, init);
      const body = init?.body;
      if (!(body instanceof URLSearchParams) || body.get("grant_type") !== "client_credentials") return response;
      if (response.ok) {
        const url = new URL(input instanceof URL ? input.href : input);
        this.issuedBy = `${url.origin}${url.pathname}`;
        return response;
      }
      throw oauthTypeError("client credentials refused", await this.refusal(input, response));
    };
  }

  /**
   * The SDK's "log in again" cases (the server answers 401 even to a token just fetched) in this grant's
   * words: there is no person to log in; the token endpoint accepted the client, the server did not
   * accept its token, so the settings that decide what the token is good for are what to check.
   */
  explainFailure(failure: McpvmError): McpvmError {
    if (failure.code !== "MCP_LOGIN_REQUIRED") return failure;
    const { server, url, config } = this.options;
    const by = this.issuedBy === undefined ? "its authorization server" : this.issuedBy;
    return new McpOAuthError(
      "MCP_OAUTH_FAILED",
      `server ${server} refused the access token ${by} issued to client id ${JSON.stringify(config.clientId)} (401, with a token fetched just now): the client credentials were accepted, the token was not. There is no login to run for the client_credentials grant: check oauth.scopes in the server's entry in config.json, and that the client's registration at the authorization server gives it access to ${url} (its audience or resource).`,
      { data: { server, url, grant: "client_credentials", ...(this.issuedBy === undefined ? {} : { tokenEndpoint: this.issuedBy }) } },
    );
  }

  // --- OAuthClientProvider ---

  /** Undefined: the SDK's non-interactive flow, which asks prepareTokenRequest for the grant. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.config.scopes;
    return {
      client_name: "mcpvm",
      redirect_uris: [],
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: this.usesKey() ? "private_key_jwt" : "client_secret_basic",
      ...(scope === undefined ? {} : { scope }),
    };
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | Promise<StoredOAuthClientInformation> {
    const { clientId, clientSecret, issuer: configured } = this.options.config;
    const info = {
      client_id: clientId,
      ...(clientSecret === undefined ? {} : { client_secret: clientSecret, token_endpoint_auth_method: "client_secret_basic" }),
    };
    const stamped = configured ?? (this.record?.client?.client_id === clientId ? this.record.client.issuer : undefined);
    if (stamped !== undefined || ctx?.issuer === undefined) return { ...info, ...(stamped === undefined ? {} : { issuer: stamped }) };
    // First use: the credentials are bound to this authorization server from now on (the SDK then
    // refuses to send them to another one the MCP server might name later).
    const issuer = ctx.issuer;
    return this.write((record) => ({ ...record, client: { client_id: clientId, issuer } })).then(() => ({ ...info, issuer }));
  }

  tokens(ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined | Promise<StoredOAuthTokens | undefined> {
    const tokens = this.record?.tokens;
    // The transport's read before each request (no ctx): fetch a new token before this one expires.
    if (ctx === undefined && tokens?.expiresAt !== undefined && tokens.expiresAt - this.now() < REFETCH_AHEAD_MS) {
      return this.fetchAhead().then(() => this.record?.tokens as StoredOAuthTokens | undefined);
    }
    return tokens as StoredOAuthTokens | undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const obtainedAt = this.now();
    const stored: StoredTokens = { ...tokens, obtainedAt, ...(typeof tokens.expires_in === "number" ? { expiresAt: obtainedAt + tokens.expires_in * 1000 } : {}) };
    this.options.addSecrets([tokens.access_token, ...(tokens.refresh_token === undefined ? [] : [tokens.refresh_token])]);
    await this.write((record) => ({ ...record, tokens: stored }));
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope !== undefined && scope !== "") params.set("scope", scope);
    return params;
  }

  redirectToAuthorization(): void {
    throw new Error("internal: the client credentials grant has no authorization redirect");
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error("internal: the client credentials grant has no PKCE verifier");
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    // The credentials themselves live in config.json (or its variables); only what was stored goes.
    if (scope === "verifier" || scope === "client") return;
    await this.write((record) => {
      const { tokens: _tokens, discovery, ...rest } = record;
      return scope === "tokens" && discovery !== undefined ? { ...rest, discovery } : rest;
    });
  }

  // --- internals ---

  /** private_key_jwt: the key is in privateKey (a variable's value) or in the file privateKeyFile names. */
  private usesKey(): boolean {
    return this.options.config.privateKey !== undefined || this.options.config.privateKeyFile !== undefined;
  }

  /** A key from a variable is checked once; a key file is read (and its mode checked) at every use, so a rotated key is picked up. */
  private async signingKey(): Promise<SigningKey> {
    const { server, config } = this.options;
    if (config.privateKeyFile !== undefined) return signingKeyFromFile(server, config.privateKeyFile, config.signingAlgorithm);
    this.key ??= signingKey(server, config.privateKey ?? "", config.signingAlgorithm);
    return this.key;
  }

  /** A new token shortly before the stored one expires; a failure leaves it to the 401 path, which says why. */
  private fetchAhead(): Promise<void> {
    this.fetching ??= (async () => {
      try {
        const { auth } = await import("@modelcontextprotocol/client");
        await auth(this, { serverUrl: this.options.url, fetchFn: this.wrapFetch(globalThis.fetch) });
      } catch {
        // The request goes out with the old token; the server's 401 runs the flow again and its error is reported.
      } finally {
        this.fetching = undefined;
      }
    })();
    return this.fetching;
  }

  private async refusal(input: string | URL, response: Response): Promise<McpOAuthError> {
    const server = this.options.server;
    const url = new URL(input instanceof URL ? input.href : input);
    const where = `${url.origin}${url.pathname}`;
    const answer = (await response.json().catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined;
    const code = typeof answer?.error === "string" ? answer.error.slice(0, 100) : `HTTP ${response.status}`;
    const description = typeof answer?.error_description === "string" ? `: ${answer.error_description.slice(0, 300)}` : "";
    const { privateKey, privateKeyFile } = this.options.config;
    const credential =
      privateKeyFile !== undefined ? "oauth.privateKeyFile (the key in it; and oauth.signingAlgorithm)" : privateKey !== undefined ? "oauth.privateKey (and oauth.signingAlgorithm)" : "oauth.clientSecret";
    const check =
      code === "invalid_scope"
        ? "oauth.scopes (or leave it out to ask for the scopes the server names)"
        : code === "unauthorized_client" || code === "unsupported_grant_type"
          ? `the client's registration at the authorization server: it must allow the client_credentials grant for oauth.clientId ${JSON.stringify(this.options.config.clientId)}`
          : `oauth.clientId and ${credential} in the server's entry in config.json, and the variable they name`;
    return new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: the authorization server ${where} refused the client credentials (${code}${description}). Check ${check}.`, {
      data: { server, url: where, oauthError: code, grant: "client_credentials" },
    });
  }

  private async write(change: (record: ServerLogin) => ServerLogin): Promise<void> {
    this.record = await this.options.store.updateBound(this.options.server, { url: this.options.url, clientId: this.options.config.clientId }, change);
  }
}
