import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { stat } from "node:fs/promises";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { GatewayError } from "../errors.js";
import { clientFileSchema, clientNameSchema, type ClientFile, type Rate, type StoredClient } from "./schema.js";

/** Tokens look like `mcpvm_<43 base64url chars>`: recognisable in a leak scan, 256 random bits. */
export const CLIENT_TOKEN_PREFIX = "mcpvm_";

/** Names the gateway gives callers that have no client token (UNSCOPED, --no-auth). */
const RESERVED_CLIENT_NAMES: ReadonlySet<string> = new Set(["default", "anonymous"]);

/** Why `name` cannot name a new client token, or undefined. */
export function clientNameProblem(name: string): string | undefined {
  const parsed = clientNameSchema.safeParse(name);
  if (!parsed.success) return `"${name}": ${parsed.error.issues[0]?.message ?? "not a valid client name"}`;
  // The log, the activity log and the dashboard name the gateway token's calls `default` and --no-auth's `anonymous`.
  if (RESERVED_CLIENT_NAMES.has(name.toLowerCase())) {
    return `"${name}" is reserved: the log and the activity log name the gateway token's calls "default" and unauthenticated ones "anonymous"; pick another name`;
  }
  return undefined;
}

export interface CreateClientOptions {
  readonly toolset?: string;
  readonly servers?: readonly string[];
  readonly rate?: Rate;
}

export interface ClientEntry extends Omit<StoredClient, "sha256"> {
  readonly name: string;
}

export type MatchedClient = ClientEntry;

export function tokenDigest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/**
 * Named client tokens in the config home (gateway-clients.json, 0600): each client's SHA-256 digest
 * and allow-list, never the token. `create` prints the token once; `revoke` deletes the entry, and
 * the gateway re-reads the file when it changes, so a revoked token fails its very next request.
 */
export class ClientTokenStore {
  private readonly store: JsonFileStore<ClientFile>;
  private cached: { key: string; digests: Array<{ digest: Buffer; entry: ClientEntry }> } | undefined;

  constructor(
    readonly file: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = new JsonFileStore(file, clientFileSchema, () => ({ version: 1, clients: {} }), "the gateway's client tokens (mcpvm gateway token)", STATE_FILE_LIMITS.small);
  }

  async create(name: string, options: CreateClientOptions = {}): Promise<{ token: string; entry: ClientEntry }> {
    const problem = clientNameProblem(name);
    if (problem !== undefined) throw new GatewayError("GATEWAY_CLIENT_INVALID", problem, { data: { client: name } });
    const token = `${CLIENT_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    const stored: StoredClient = {
      sha256: tokenDigest(token).toString("hex"),
      prefix: token.slice(0, CLIENT_TOKEN_PREFIX.length + 4),
      createdAt: this.now().toISOString(),
      ...(options.toolset === undefined ? {} : { toolset: options.toolset }),
      ...(options.servers === undefined ? {} : { servers: [...new Set(options.servers)] }),
      ...(options.rate === undefined ? {} : { rate: options.rate }),
    };
    await this.store.update((draft) => {
      if (Object.hasOwn(draft.clients, name)) {
        throw new GatewayError("GATEWAY_CLIENT_EXISTS", `a client named "${name}" already has a token; revoke it first (mcpvm gateway token revoke ${name}) or pick another name`, { data: { client: name } });
      }
      draft.clients[name] = stored;
    });
    return { token, entry: entryOf(name, stored) };
  }

  async list(): Promise<ClientEntry[]> {
    const file = await this.store.read();
    return Object.entries(file.clients)
      .map(([name, stored]) => entryOf(name, stored))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async revoke(name: string): Promise<void> {
    await this.store.update((draft) => {
      if (!Object.hasOwn(draft.clients, name)) {
        const known = Object.keys(draft.clients);
        throw new GatewayError("GATEWAY_CLIENT_UNKNOWN", `no client named "${name}" has a token (clients: ${known.join(", ") || "none"})`, { data: { client: name } });
      }
      delete draft.clients[name];
    });
  }

  /**
   * The client whose token this is, or undefined. Every stored digest is compared (in constant
   * time), so the time taken does not say which client, or how much of a digest, matched. The
   * file is re-read only when its size or mtime changed: one stat per request.
   */
  async match(token: string): Promise<MatchedClient | undefined> {
    const digests = await this.digests();
    const presented = tokenDigest(token);
    let found: ClientEntry | undefined;
    for (const { digest, entry } of digests) if (timingSafeEqual(digest, presented) && found === undefined) found = entry;
    return found;
  }

  /** `credentialOf` of every token the file holds now (re-read only when it changed, as for match). */
  async credentials(): Promise<ReadonlySet<string>> {
    return new Set((await this.digests()).map(({ entry }) => credentialOf(entry)));
  }

  private async digests(): Promise<Array<{ digest: Buffer; entry: ClientEntry }>> {
    const info = await stat(this.file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    const key = info === undefined ? "absent" : `${info.size}:${info.mtimeMs}:${info.ino}`;
    if (this.cached?.key === key) return this.cached.digests;
    const file = info === undefined ? { version: 1 as const, clients: {} } : await this.store.read();
    const digests = Object.entries(file.clients).map(([name, stored]) => ({ digest: Buffer.from(stored.sha256, "hex"), entry: entryOf(name, stored) }));
    this.cached = { key, digests };
    return digests;
  }
}

/** One token's identity while it lives: a token revoked and made again under the same name is another. */
export function credentialOf(entry: ClientEntry): string {
  return `${entry.name} ${entry.createdAt}`;
}

function entryOf(name: string, stored: StoredClient): ClientEntry {
  const { sha256: _digest, ...rest } = stored;
  return { name, ...rest };
}
