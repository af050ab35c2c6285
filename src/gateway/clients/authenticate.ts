import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { credentialOf, type ClientTokenStore } from "./store.js";
import { UNSCOPED, type ClientScope } from "./scope.js";

/** A request refused: the HTTP status, and the RFC 6750 error its WWW-Authenticate challenge carries. */
export interface AuthRefusal {
  readonly refused: true;
  /** 400 malformed credentials, 401 none or invalid, 403 valid but not enough, 503 the identity provider cannot be asked. */
  readonly status: 400 | 401 | 403 | 503;
  /** RFC 6750 §3.1; absent when the request sent no credentials at all. */
  readonly error?: "invalid_request" | "invalid_token" | "insufficient_scope";
  /** What is wrong, for the person reading the response or the log (never the token). */
  readonly description: string;
  /** insufficient_scope: the scopes the request needs (space-separated). */
  readonly scope?: string;
}

export type AuthResult = ClientScope | AuthRefusal;

export function isRefusal(result: AuthResult): result is AuthRefusal {
  return "refused" in result;
}

export function refusal(status: AuthRefusal["status"], description: string, error?: AuthRefusal["error"], scope?: string): AuthRefusal {
  return { refused: true, status, description, ...(error === undefined ? {} : { error }), ...(scope === undefined ? {} : { scope }) };
}

/** Decides who sent an HTTP request, or why it is refused. */
export interface RequestAuthenticator {
  authenticate(request: IncomingMessage): Promise<AuthResult>;
  /** Said in the 401 body: how to authenticate. */
  readonly hint: string;
  /** The WWW-Authenticate value for a refusal (RFC 6750 §3). */
  challenge(refused: AuthRefusal): string;
  /** Documents served to anyone at these paths (RFC 9728 protected resource metadata), or undefined. */
  publicDocument?(path: string): Record<string, unknown> | undefined;
  /** Told the gateway's /mcp URL once it listens. */
  listening?(url: string): void;
  /** The named client tokens valid now (their `credential`s), so sessions of a revoked one can be closed. */
  clientCredentials?(): Promise<ReadonlySet<string>>;
}

/** `"` and `\` cannot appear in an auth-param's quoted string; controls and non-ASCII do not belong there either. */
export function quotedParam(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, "'").slice(0, 300);
}

/** `Bearer realm="mcpvm"` with the refusal's error, description and scope, and any extra parameters first. */
export function bearerChallenge(refused: AuthRefusal, extra: Record<string, string> = {}): string {
  const params: Record<string, string> = { realm: "mcpvm", ...extra };
  if (refused.error !== undefined) {
    params.error = refused.error;
    params.error_description = refused.description;
  }
  if (refused.scope !== undefined) params.scope = refused.scope;
  return `Bearer ${Object.entries(params)
    .map(([key, value]) => `${key}="${quotedParam(value)}"`)
    .join(", ")}`;
}

export function bearerOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  return match?.[1];
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

export interface TokenAuthOptions {
  /** The single gateway token (--token, --token-file, MCPVM_GATEWAY_TOKEN, the home's); undefined with --no-auth. */
  readonly token: string | undefined;
  /** Named client tokens (gateway-clients.json). */
  readonly clients?: ClientTokenStore;
}

/**
 * The single gateway token (every tool, client name "default") or a named client token (its
 * allow-list and rate). With --no-auth and no bearer the request is "anonymous" and unscoped, as
 * before; a named token sent there still names (and limits) its client.
 */
export function tokenAuthenticator(options: TokenAuthOptions): RequestAuthenticator {
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);
  const clients = options.clients;
  return {
    ...(clients === undefined ? {} : { clientCredentials: () => clients.credentials() }),
    hint: "send Authorization: Bearer <token> (the gateway token, or a client token from `mcpvm gateway token create`)",
    challenge: (refused) => bearerChallenge(refused),
    async authenticate(request) {
      const bearer = bearerOf(request);
      if (bearer === undefined) return tokenDigest === undefined ? { name: "anonymous", via: "none" } : refusal(401, "no bearer token");
      const presented = digest(bearer);
      if (tokenDigest !== undefined && timingSafeEqual(presented, tokenDigest)) return UNSCOPED;
      const client = options.clients === undefined ? undefined : await options.clients.match(bearer);
      if (client !== undefined) {
        return {
          name: client.name,
          via: "client-token",
          credential: credentialOf(client),
          ...(client.toolset === undefined ? {} : { toolset: client.toolset }),
          ...(client.servers === undefined ? {} : { servers: client.servers }),
          ...(client.rate === undefined ? {} : { rate: client.rate }),
        };
      }
      return tokenDigest === undefined && options.clients === undefined ? { name: "anonymous", via: "none" } : refusal(401, "the bearer token is not the gateway token or a client token", "invalid_token");
    },
  };
}
