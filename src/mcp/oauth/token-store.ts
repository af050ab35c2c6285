import { z } from "zod";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";

/**
 * What one server's login left behind. `url` and `clientId` bind it to the definition it was made
 * for: a changed URL or client id makes the record unusable (the person logs in again), so tokens
 * never travel to a server they were not issued for.
 */
const tokensSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  expires_in: z.number().optional(),
  id_token: z.string().optional(),
  issuer: z.string().optional(),
  /** Epoch ms when these tokens were saved. */
  obtainedAt: z.number(),
  /** Epoch ms when the access token expires, when the server said (expires_in). */
  expiresAt: z.number().optional(),
});

const clientSchema = z.looseObject({ client_id: z.string(), client_secret: z.string().optional(), issuer: z.string().optional() });

export const serverLoginSchema = z.object({
  url: z.string(),
  clientId: z.string().optional(),
  client: clientSchema.optional(),
  tokens: tokensSchema.optional(),
  /** Scopes the server asked for in a 403 insufficient_scope (step-up): every later login asks for them too, until logout. */
  stepUpScope: z.string().optional(),
  /** The SDK's discovery state (metadata documents), kept so a refresh needs no discovery round. */
  discovery: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
});

const fileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), serverLoginSchema) });

export type ServerLogin = z.infer<typeof serverLoginSchema>;
export type StoredTokens = z.infer<typeof tokensSchema>;
export type OAuthTokensFile = z.infer<typeof fileSchema>;

/** oauth-tokens.json in the config home: mode 0600, locked and atomic like every state file there. */
export class OAuthTokenStore {
  private readonly store: JsonFileStore<OAuthTokensFile>;

  constructor(readonly file: string) {
    this.store = new JsonFileStore(file, fileSchema, () => ({ version: 1, servers: {} }), "OAuth tokens of remote MCP servers (logins)", STATE_FILE_LIMITS.small);
  }

  async get(server: string): Promise<ServerLogin | undefined> {
    return (await this.store.read()).servers[server];
  }

  async all(): Promise<Readonly<Record<string, ServerLogin>>> {
    return (await this.store.read()).servers;
  }

  /** Change one server's record; `undefined` from `mutate` removes it. */
  async update(server: string, mutate: (current: ServerLogin | undefined) => ServerLogin | undefined): Promise<void> {
    await this.store.update((draft) => {
      const next = mutate(draft.servers[server]);
      if (next === undefined) delete draft.servers[server];
      else draft.servers[server] = next;
    });
  }

  /**
   * Applies `change` to the server's record bound to this definition (its URL and client id) and
   * returns the record written. A record left by another definition (URL or client id changed) is
   * not built upon: `change` starts from the binding alone.
   */
  async updateBound(server: string, binding: { readonly url: string; readonly clientId?: string }, change: (record: ServerLogin) => ServerLogin): Promise<ServerLogin> {
    let next: ServerLogin | undefined;
    await this.update(server, (current) => {
      const base = loginMatches(current, binding.url, binding.clientId) ? current : binding;
      next = change({ ...base, ...binding });
      return next;
    });
    return next as ServerLogin;
  }

  async remove(server: string): Promise<ServerLogin | undefined> {
    let removed: ServerLogin | undefined;
    await this.update(server, (current) => {
      removed = current;
      return undefined;
    });
    return removed;
  }
}

/** Whether a stored record belongs to this definition of the server. */
export function loginMatches(login: ServerLogin | undefined, url: string, clientId: string | undefined): login is ServerLogin {
  return login !== undefined && login.url === url && login.clientId === clientId;
}
