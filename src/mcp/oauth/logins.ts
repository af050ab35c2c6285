import type { LoginDriver } from "../client-manager/options.js";
import type { McpServerLaunch } from "../types.js";
import type { LoginInteraction } from "./interaction.js";
import { loginSubject } from "./identity.js";
import { ClientCredentialsLogin } from "./client-credentials.js";
import { McpvmOAuthProvider, type LoginEvent } from "./provider.js";
import type { RevocationOutcome } from "./revoke.js";
import { loginMatches, OAuthTokenStore, type ServerLogin } from "./token-store.js";

export interface LoginStatus {
  /** "none": no login stored for this definition; "valid" / "expired" by the access token's expiry (refresh may still work). */
  readonly state: "none" | "valid" | "expired";
  readonly expiresAt?: number;
  /** A refresh token is stored: the login renews without a person. */
  readonly refreshable: boolean;
  /** "client_credentials": no person and no refresh token; a new token is fetched with the client's credentials. */
  readonly grant?: "client_credentials";
  readonly scope?: string;
  readonly subject?: string;
}

/** The server definition a login is bound to. */
export interface LoginTarget {
  readonly url: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** "client_credentials": a new token is fetched unattended whenever needed. */
  readonly grant?: "client_credentials";
}

/**
 * The logins of every remote server of one mcpvm process: one provider per server (it holds the
 * redirect listener and the flow's in-memory state), the face's way to open a browser, and
 * status/logout over oauth-tokens.json.
 */
export class OAuthLogins {
  private readonly providers = new Map<string, { key: string; provider: McpvmOAuthProvider | ClientCredentialsLogin }>();
  private interaction: LoginInteraction | undefined;
  private loginEvents: ((event: LoginEvent) => Promise<void>) | undefined;

  constructor(
    readonly store: OAuthTokenStore,
    private readonly addSecrets: (values: readonly string[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The face says whether (and how) a browser may be opened; undefined: logins fail with MCP_LOGIN_REQUIRED. */
  setInteraction(interaction: LoginInteraction | undefined): void {
    this.interaction = interaction;
  }

  /** Where browser logins are reported (the service's audit log). */
  onLoginEvent(listener: (event: LoginEvent) => Promise<void>): void {
    this.loginEvents = listener;
  }

  currentInteraction(): LoginInteraction | undefined {
    return this.interaction;
  }

  /**
   * The OAuth driver of an http/sse server. A server configured with its own Authorization header
   * keeps it: its 401 means that token is wrong, not that a login is wanted.
   */
  driverFor(launch: McpServerLaunch): LoginDriver | undefined {
    if (launch.transport === "stdio") return undefined;
    if (Object.keys(launch.headers).some((name) => name.toLowerCase() === "authorization")) return undefined;
    const key = JSON.stringify([launch.url, launch.oauth ?? null]);
    const cached = this.providers.get(launch.name);
    if (cached?.key === key) return cached.provider;
    if (cached !== undefined) void this.disposeProvider(cached.provider);
    const oauth = launch.oauth;
    if (oauth?.grant === "client_credentials" && oauth.clientId !== undefined) {
      const machine = new ClientCredentialsLogin({ server: launch.name, url: launch.url, config: { ...oauth, clientId: oauth.clientId }, store: this.store, addSecrets: this.addSecrets, now: this.now });
      this.providers.set(launch.name, { key, provider: machine });
      return machine;
    }
    const provider = new McpvmOAuthProvider({
      server: launch.name,
      url: launch.url,
      config: launch.oauth,
      store: this.store,
      addSecrets: this.addSecrets,
      interaction: () => this.interaction,
      now: this.now,
      onLoginEvent: async (event) => this.loginEvents?.(event),
    });
    this.providers.set(launch.name, { key, provider });
    return provider;
  }

  async status(server: string, target: LoginTarget): Promise<LoginStatus> {
    const login = await this.store.get(server);
    if (!loginMatches(login, target.url, target.clientId) || login.tokens === undefined) return { state: "none", refreshable: false };
    const tokens = login.tokens;
    const subject = loginSubject(tokens);
    return {
      state: tokens.expiresAt !== undefined && tokens.expiresAt <= this.now() ? "expired" : "valid",
      ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
      refreshable: tokens.refresh_token !== undefined,
      ...(target.grant === undefined ? {} : { grant: target.grant }),
      ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
      ...(subject === undefined ? {} : { subject }),
    };
  }

  /** Forget the server's login (revoking its tokens where the server supports RFC 7009). Undefined: there was none. */
  async logout(server: string, target: LoginTarget | undefined): Promise<RevocationOutcome | undefined> {
    await this.forgetProvider(server);
    const removed = await this.store.remove(server);
    if (removed?.tokens === undefined) return undefined;
    // Loaded here: revoke.ts uses the MCP client SDK, which a process that never logs out need not load.
    const { revokeTokens } = await import("./revoke.js");
    return revokeTokens(removed, target !== undefined && loginMatches(removed, target.url, target.clientId) ? target.clientSecret : undefined);
  }

  /**
   * Drops stored tokens and discovered metadata (keeps the client registration), so that the next
   * connect logs in afresh against what the servers publish now. Returns the record as it was, for
   * restoreLogin when that login fails.
   */
  async forgetTokens(server: string): Promise<ServerLogin | undefined> {
    await this.forgetProvider(server);
    let before: ServerLogin | undefined;
    await this.store.update(server, (current) => {
      before = current;
      return current === undefined ? undefined : { ...current, tokens: undefined, discovery: undefined };
    });
    return before;
  }

  /**
   * A login that failed (declined, cancelled, its authorization server down) leaves the login it
   * was to replace, still good, in place — unless another login was stored meanwhile.
   */
  async restoreLogin(server: string, previous: ServerLogin | undefined): Promise<void> {
    if (previous?.tokens === undefined) return;
    await this.forgetProvider(server);
    await this.store.update(server, (current) => {
      if (current === undefined) return previous;
      if (current.tokens !== undefined || !loginMatches(current, previous.url, previous.clientId)) return current;
      // The tokens were issued to the previous registration: it comes back with them.
      return { ...current, tokens: previous.tokens, ...(previous.discovery === undefined ? {} : { discovery: previous.discovery }), ...(previous.client === undefined ? {} : { client: previous.client }) };
    });
  }

  async dispose(): Promise<void> {
    const providers = [...this.providers.values()];
    this.providers.clear();
    await Promise.all(providers.map(({ provider }) => this.disposeProvider(provider)));
  }

  /** A browser login's provider holds a redirect listener; a client credentials one holds nothing. */
  private async disposeProvider(provider: McpvmOAuthProvider | ClientCredentialsLogin): Promise<void> {
    if (provider instanceof McpvmOAuthProvider) await provider.dispose();
  }

  private async forgetProvider(server: string): Promise<void> {
    const cached = this.providers.get(server);
    this.providers.delete(server);
    if (cached !== undefined) await this.disposeProvider(cached.provider);
  }
}
