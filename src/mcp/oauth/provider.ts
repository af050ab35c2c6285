import { loginSubject } from "./identity.js";
import { randomBytes } from "node:crypto";
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { McpResolvedOAuth } from "../types.js";
import { loginRequired, McpOAuthError } from "./errors.js";
import type { LoginInteraction } from "./interaction.js";
import { isLoopbackHost, RedirectListener, registeredPort } from "./redirect-listener.js";
import { waitForRedirect } from "./redirect-wait.js";
import { clientBoundElsewhere, movedAuthorizationServer, sameIssuer } from "./moved.js";
import { mergeScopes, noteStepUps, widenScope } from "./step-up.js";
import { serializeRefreshes, type FetchLike } from "./refresh-lock.js";
import { boundOAuthResponses } from "./bounded-fetch.js";
import { loginMatches, type OAuthTokenStore, type ServerLogin, type StoredTokens } from "./token-store.js";

/** Interactive authorizations one operation (a connect, a call) may start before mcpvm calls it a loop. */
export const MAX_AUTHORIZATIONS_PER_OPERATION = 2;
/** An access token this close to its expiry is refreshed before it is sent. */
const REFRESH_AHEAD_MS = 60_000;

export interface McpvmOAuthProviderOptions {
  readonly server: string;
  readonly url: string;
  readonly config: McpResolvedOAuth | undefined;
  readonly store: OAuthTokenStore;
  /** Registers values the redactor must mask (tokens, client secrets). */
  readonly addSecrets: (values: readonly string[]) => void;
  /** The face's way to open a browser, read when a login starts; undefined: a needed login fails with MCP_LOGIN_REQUIRED. */
  readonly interaction: () => LoginInteraction | undefined;
  readonly now?: () => number;
  /** Told when a browser login ends (completed, declined, refused): the audit log records it. Never given a token. */
  readonly onLoginEvent?: (event: LoginEvent) => Promise<void>;
}

/** A browser login's outcome, for the audit log: who and which scopes, never a token. */
export interface LoginEvent {
  readonly server: string;
  readonly decision: "logged-in" | "declined" | "refused";
  readonly subject?: string;
  readonly scopes?: string;
  readonly reason?: string;
}

/** Thrown inside a refresh-only auth() to stop it before it would start a browser login. */
class RefreshOnly extends Error {}

/**
 * The SDK's OAuthClientProvider for one server: the SDK does discovery, registration, PKCE, the
 * token requests, `iss` validation and step-up; this class is what the SDK leaves to the host —
 * where tokens live (oauth-tokens.json, bound to the server's URL and client id), the loopback
 * redirect listener, opening the browser, and `state`.
 */
export class McpvmOAuthProvider implements OAuthClientProvider {
  private record: ServerLogin | undefined;
  /** Whether a login was stored when this connect began: a login needed now means it expired or was revoked. */
  private hadLogin = false;
  private listener: RedirectListener | undefined;
  private redirect = "http://127.0.0.1/callback";
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private pendingUrl: URL | undefined;
  private authorizations = 0;
  /** Set when a browser login's redirect came back: the next saveTokens is that login's (not a refresh). */
  private loginReturned = false;
  private refreshOnly = false;
  private refreshing: Promise<void> | undefined;
  /** The scope a 403 insufficient_scope just asked for: the login it leads to is a step-up, not an expiry. */
  private stepUp: string | undefined;
  /** Why the last refresh got no answer (server down, 5xx); the SDK would go on to a browser login. */
  private refreshFailure: McpOAuthError | undefined;
  private readonly now: () => number;

  constructor(private readonly options: McpvmOAuthProviderOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The LoginDriver face of this object (src/mcp/client-manager). */
  get provider(): OAuthClientProvider {
    return this;
  }

  get server(): string {
    return this.options.server;
  }

  get interactive(): boolean {
    return this.options.interaction() !== undefined;
  }

  /** Loads the stored login and, when a browser may be used, starts the redirect listener. */
  async prepare(): Promise<void> {
    const stored = await this.options.store.get(this.options.server);
    this.record = loginMatches(stored, this.options.url, this.options.config?.clientId) ? stored : undefined;
    this.hadLogin = this.record?.tokens !== undefined;
    this.registerSecrets(this.record);
    if (!this.interactive || this.listener !== undefined) return;
    const fixed = this.options.config?.callbackPort;
    const registered = registeredPort(this.record?.client);
    if (fixed !== undefined) this.listener = await RedirectListener.listen(this.options.server, fixed);
    else {
      // A registration (DCR) names its redirect URI with the port: keep it when it is free, else register again.
      this.listener = registered === undefined ? undefined : await RedirectListener.listen(this.options.server, registered).catch(() => undefined);
      if (this.listener === undefined) {
        if (registered !== undefined && this.record !== undefined) this.record = { ...this.record, client: undefined };
        this.listener = await RedirectListener.listen(this.options.server, 0);
      }
    }
    this.redirect = this.listener.redirectUri;
  }

  async dispose(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  /** A new operation (connect, call) starts with a fresh budget of interactive authorizations. */
  beginOperation(): void {
    this.authorizations = 0;
    this.refreshFailure = undefined;
  }

  /** The stored tokens (for `mcp list` and the login summary). */
  currentTokens(): StoredTokens | undefined {
    return this.record?.tokens;
  }

  // --- OAuthClientProvider ---

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.config?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.config?.scopes;
    return {
      client_name: "mcpvm",
      client_uri: "https://github.com/mcpvm/mcpvm",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(scope === undefined ? {} : { scope }),
    };
  }

  state(): string {
    this.expectedState = randomBytes(24).toString("base64url");
    return this.expectedState;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined | Promise<StoredOAuthClientInformation> {
    const config = this.options.config;
    // Pre-registered credentials from config.json come first, then a stored registration (CIMD or DCR).
    if (config?.clientId !== undefined) {
      const info = { client_id: config.clientId, ...(config.clientSecret === undefined ? {} : { client_secret: config.clientSecret }) };
      const stamped = this.record?.client?.client_id === config.clientId ? this.record.client.issuer : undefined;
      if (stamped !== undefined && ctx?.issuer !== undefined && !sameIssuer(stamped, ctx.issuer)) throw clientBoundElsewhere(this.options.server, stamped, ctx.issuer);
      if (stamped !== undefined || ctx?.issuer === undefined) return { ...info, ...(stamped === undefined ? {} : { issuer: stamped }) };
      // First use with an authorization server binds the client to it (SEP-2352). Stamped here: the SDK
      // would do the same, after printing a developer's warning on the person's terminal.
      const bound = { ...info, issuer: ctx.issuer };
      return this.saveClientInformation(bound).then(() => bound);
    }
    const stored = this.record?.client;
    if (stored !== undefined) return stored as StoredOAuthClientInformation;
    // Registering a client only to find out that no browser may be opened would leave a stray registration.
    if (!this.interactive && !this.refreshOnly) throw loginRequired(this.options.server);
    return undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered client's secret stays in config.json (or its variable); only the issuer stamp is kept.
    const client = this.options.config?.clientId !== undefined ? { client_id: info.client_id, ...(info.issuer === undefined ? {} : { issuer: info.issuer }) } : { ...info };
    if (typeof info.client_secret === "string") this.options.addSecrets([info.client_secret]);
    await this.write((record) => ({ ...record, client }));
  }

  tokens(ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined | Promise<StoredOAuthTokens | undefined> {
    const tokens = this.record?.tokens;
    // The transport's read before each request (no ctx): refresh a token about to expire first.
    if (ctx === undefined && tokens?.refresh_token !== undefined && tokens.expiresAt !== undefined && tokens.expiresAt - this.now() < REFRESH_AHEAD_MS) {
      return this.refreshAhead().then(() => this.record?.tokens as StoredOAuthTokens | undefined);
    }
    return tokens as StoredOAuthTokens | undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const stored = await this.storeTokens(tokens);
    if (this.loginReturned) {
      this.loginReturned = false;
      const subject = loginSubject(stored);
      await this.options.onLoginEvent?.({ server: this.options.server, decision: "logged-in", ...(subject === undefined ? {} : { subject }), ...(stored.scope === undefined ? {} : { scopes: stored.scope }) });
    }
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const server = this.options.server;
    const interaction = this.options.interaction();
    if (this.refreshOnly) throw new RefreshOnly();
    // The stored login is not expired or revoked when its authorization server did not answer: say
    // that, and keep it, rather than send the person to a login that would fail the same way.
    const unanswered = this.refreshFailure;
    this.refreshFailure = undefined;
    if (unanswered !== undefined) {
      const cached = this.record?.discovery;
      const moved = await movedAuthorizationServer(this.options.url, cached, this.wrapFetch(globalThis.fetch));
      if (moved === undefined || cached === undefined) throw unanswered;
      // The old authorization server will not answer again: the next login must discover the new one.
      await this.invalidateCredentials("discovery");
      throw loginRequired(server, `it now names the authorization server ${moved}, not ${cached.authorizationServerUrl} that its login came from`);
    }
    const stepUp = this.stepUp;
    this.stepUp = undefined;
    // Kept with the login: `mcp login` (another process, after a 401 without a scope) must ask for it too.
    if (stepUp !== undefined) await this.write((record) => ({ ...record, stepUpScope: mergeScopes(record.stepUpScope, stepUp) }));
    const why = stepUp !== undefined ? `it answered 403 insufficient_scope: it wants the scope "${stepUp}"` : this.hadLogin ? "its login expired or was revoked; log in again" : undefined;
    if (interaction === undefined) throw loginRequired(server, why);
    if (authorizationUrl.protocol !== "https:" && !(authorizationUrl.protocol === "http:" && isLoopbackHost(authorizationUrl.hostname))) {
      throw new McpOAuthError(
        "MCP_OAUTH_INSECURE",
        `server ${server}: its authorization server wants the login at ${authorizationUrl.origin}, which is not https (plain http is accepted on this machine's loopback only); refusing to send a login there.`,
        { data: { server, authorizationEndpoint: authorizationUrl.origin } },
      );
    }
    this.authorizations += 1;
    if (this.authorizations > MAX_AUTHORIZATIONS_PER_OPERATION) {
      throw new McpOAuthError(
        "MCP_OAUTH_LOOP",
        `server ${server} asked for authorization again after ${MAX_AUTHORIZATIONS_PER_OPERATION} logins in a row (it keeps answering 403 insufficient_scope); stopped instead of looping. Check which scopes your account may have.`,
        { data: { server } },
      );
    }
    // The browser step runs after the SDK gave up on this request (UnauthorizedError), outside any
    // request timeout: the connection calls completeLogin() and then finishAuth.
    this.pendingUrl = widenScope(authorizationUrl, this.record?.stepUpScope);
  }

  /**
   * When the SDK asked for a browser login: open it, wait for the redirect, check `state`, and
   * return the redirect's query for transport.finishAuth. Undefined when no login is pending.
   */
  async completeLogin(): Promise<URLSearchParams | undefined> {
    const url = this.pendingUrl;
    this.pendingUrl = undefined;
    const interaction = this.options.interaction();
    if (url === undefined || interaction === undefined) return undefined;
    const server = this.options.server;
    const listener = this.listener;
    if (listener === undefined) throw new Error("internal: prepare() was not called before a login");
    if (interaction.confirmLogin !== undefined && !(await interaction.confirmLogin(server))) {
      await this.options.onLoginEvent?.({ server, decision: "declined", reason: "the person answered no" });
      throw loginRequired(server);
    }
    const params = await waitForRedirect(server, interaction, listener, url);
    const state = params.get("state");
    if (this.expectedState === undefined || state !== this.expectedState) {
      await this.options.onLoginEvent?.({ server, decision: "refused", reason: "the redirect's state did not match (stale or forged)" });
      throw new McpOAuthError(
        "MCP_OAUTH_STATE_MISMATCH",
        `server ${server}: the login redirect carried ${state === null ? "no state" : "another state"} than the one mcpvm sent (a stale or forged redirect); nothing was stored. Run \`mcpvm mcp login ${server}\` again.`,
        { data: { server } },
      );
    }
    this.expectedState = undefined;
    if (params.has("error")) await this.options.onLoginEvent?.({ server, decision: "refused", reason: `the authorization server answered ${params.get("error") ?? "an error"}` });
    else this.loginReturned = true;
    if (!params.has("code") && !params.has("error")) {
      throw new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: the login redirect carried neither a code nor an error; nothing was stored.`, { data: { server } });
    }
    return params;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new McpOAuthError("MCP_OAUTH_FAILED", `server ${this.options.server}: no login is in progress (no PKCE verifier)`, { data: { server: this.options.server } });
    return this.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    if (scope === "tokens") return this.dropTokens();
    await this.write((record) => {
      if (scope === "all") return { url: record.url, ...(record.clientId === undefined ? {} : { clientId: record.clientId }) };
      const { client, tokens, discovery, ...rest } = record;
      return { ...rest, ...(scope === "client" || client === undefined ? {} : { client }), ...(tokens === undefined ? {} : { tokens }), ...(scope === "discovery" || discovery === undefined ? {} : { discovery }) };
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.write((record) => ({ ...record, discovery: JSON.parse(JSON.stringify(state)) as ServerLogin["discovery"] }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record?.discovery as OAuthDiscoveryState | undefined;
  }

  /**
   * The fetch for this server's transport and refreshes: OAuth answers have a size cap
   * (bounded-fetch.ts), and refreshes go one at a time across processes (refresh-lock.ts).
   */
  wrapFetch(inner: FetchLike): FetchLike {
    const observed = noteStepUps(inner, (scope) => (this.stepUp = scope));
    return serializeRefreshes(boundOAuthResponses(observed, this.options.server, this.options.url), {
      storeFile: this.options.store.file,
      server: this.options.server,
      storedRefreshToken: async () => {
        const stored = await this.options.store.get(this.options.server);
        return loginMatches(stored, this.options.url, this.options.config?.clientId) ? stored.tokens?.refresh_token : undefined;
      },
      refreshOutcome: (failure) => (this.refreshFailure = failure),
      saveRefreshed: async (tokens) => {
        const issuer = this.record?.tokens?.issuer;
        await this.storeTokens({ ...(issuer === undefined ? {} : { issuer }), ...tokens } as StoredOAuthTokens);
      },
    });
  }

  // --- internals ---

  private async storeTokens(tokens: StoredOAuthTokens): Promise<StoredTokens> {
    const obtainedAt = this.now();
    const stored: StoredTokens = {
      ...tokens,
      obtainedAt,
      ...(typeof tokens.expires_in === "number" ? { expiresAt: obtainedAt + tokens.expires_in * 1000 } : {}),
    };
    this.options.addSecrets([tokens.access_token, ...(tokens.refresh_token === undefined ? [] : [tokens.refresh_token]), ...(tokens.id_token === undefined ? [] : [tokens.id_token])]);
    await this.write((record) => ({ ...record, tokens: stored }));
    return stored;
  }

  /**
   * The SDK drops the tokens on invalid_grant and retries. When another process (the gateway, a
   * second `mcpvm run`) refreshed after this one read the file, the refused refresh token was the one
   * it spent (servers that rotate refresh tokens refuse a second use), and the tokens now stored are
   * good: they are kept and taken up, so the retry uses them, instead of logging everyone out.
   */
  private async dropTokens(): Promise<void> {
    const held = this.record?.tokens;
    let adopted = false;
    await this.write((record) => {
      if (record.tokens !== undefined && record.tokens.access_token !== held?.access_token) {
        adopted = true;
        return record;
      }
      const { tokens: _dropped, ...rest } = record;
      return rest;
    });
    if (adopted) this.registerSecrets(this.record);
  }

  /** A refresh of an access token about to expire; failures leave it to the 401 path. */
  private refreshAhead(): Promise<void> {
    this.refreshing ??= (async () => {
      this.refreshOnly = true;
      try {
        // The SDK loads with the first connection; a provider exists before that (see client-manager.ts).
        const { auth } = await import("@modelcontextprotocol/client");
        await auth(this, { serverUrl: this.options.url, fetchFn: this.wrapFetch(globalThis.fetch) });
      } catch {
        // An expired refresh token, a server that is down: the request goes out and its 401 says what to do.
      } finally {
        this.refreshOnly = false;
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  private registerSecrets(record: ServerLogin | undefined): void {
    if (record === undefined) return;
    const values = [record.tokens?.access_token, record.tokens?.refresh_token, record.tokens?.id_token, record.client?.client_secret].filter((v): v is string => typeof v === "string" && v !== "");
    this.options.addSecrets(values);
  }

  private async write(change: (record: ServerLogin) => ServerLogin): Promise<void> {
    const binding = { url: this.options.url, ...(this.options.config?.clientId === undefined ? {} : { clientId: this.options.config.clientId }) };
    this.record = await this.options.store.updateBound(this.options.server, binding, change);
  }
}
