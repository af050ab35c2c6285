import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { ClientTokenStore } from "./store.js";
import { UNSCOPED, type ClientScope } from "./scope.js";

/** Decides who sent an HTTP request; undefined means refused (401). */
export interface RequestAuthenticator {
  authenticate(request: IncomingMessage): Promise<ClientScope | undefined>;
  /** Said in the 401 body: how to authenticate. */
  readonly hint: string;
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
  return {
    hint: "send Authorization: Bearer <token> (the gateway token, or a client token from `mcpvm gateway token create`)",
    async authenticate(request) {
      const bearer = bearerOf(request);
      if (bearer === undefined) return tokenDigest === undefined ? { name: "anonymous", via: "none" } : undefined;
      const presented = digest(bearer);
      if (tokenDigest !== undefined && timingSafeEqual(presented, tokenDigest)) return UNSCOPED;
      const client = options.clients === undefined ? undefined : await options.clients.match(bearer);
      if (client !== undefined) {
        return {
          name: client.name,
          via: "client-token",
          ...(client.toolset === undefined ? {} : { toolset: client.toolset }),
          ...(client.servers === undefined ? {} : { servers: client.servers }),
          ...(client.rate === undefined ? {} : { rate: client.rate }),
        };
      }
      return tokenDigest === undefined && options.clients === undefined ? { name: "anonymous", via: "none" } : undefined;
    },
  };
}
