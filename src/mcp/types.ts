/**
 * A server's launch definition after `${VAR}` / `${input:id}` substitution: exactly what the client
 * manager spawns or contacts. Produced by src/mcp/config (resolveLaunch), consumed by the client
 * manager, hashed by approval. Never written to disk (it holds secret values in clear).
 */
export type McpTransportKind = "stdio" | "http" | "sse";

export interface McpStdioLaunch {
  readonly transport: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  /** Only the configured env; the client manager adds the minimal inherited environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** The `oauth` block with its `${VAR}` references filled in. */
export interface McpResolvedOAuth {
  /** Absent: authorization code (a browser login). */
  readonly grant?: "client_credentials";
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** client_credentials with private_key_jwt: the PEM (or JWK JSON) the reference resolved to. */
  readonly privateKey?: string;
  /** client_credentials with private_key_jwt: the path of the key file, read (and its mode checked) at use. */
  readonly privateKeyFile?: string;
  readonly signingAlgorithm?: string;
  /** client_credentials: the only authorization server the credentials may go to. */
  readonly issuer?: string;
  /** Space-separated. */
  readonly scopes?: string;
  readonly callbackPort?: number;
  readonly clientMetadataUrl?: string;
}

export interface McpRemoteLaunch {
  readonly transport: "http" | "sse";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Present when the entry has an `oauth` block; login works without one too (discovery, DCR). */
  readonly oauth?: McpResolvedOAuth;
}

export interface McpServerLimits {
  readonly connectTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly maxResponseBytes: number;
}

export type McpServerLaunch = (McpStdioLaunch | McpRemoteLaunch) & {
  readonly name: string;
  readonly limits: McpServerLimits;
  /** Values that must never appear in output (env values, header values, prompted inputs). */
  readonly secrets: readonly string[];
  /** The entry's own `roots` (absolute or `~/`): answered to its roots/list in place of the face's. */
  readonly roots?: readonly string[];
};

export const DEFAULT_SERVER_LIMITS: McpServerLimits = Object.freeze({
  connectTimeoutMs: 10_000,
  callTimeoutMs: 30_000,
  maxResponseBytes: 1024 * 1024,
});
