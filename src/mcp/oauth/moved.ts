import { McpOAuthError } from "./errors.js";
import type { FetchLike } from "./refresh-lock.js";

/** The resource metadata request this check makes is one small document; a slow server must not hold the error. */
const CHECK_TIMEOUT_MS = 5_000;

/**
 * The authorization server a resource names now, when the login's cached discovery names another
 * (the server moved its logins elsewhere); undefined when it still names the cached one, or when
 * that cannot be found out. A refresh goes to the cached authorization server without asking the
 * resource again: when that one is gone, only asking says whether to wait for it or log in again.
 */
export async function movedAuthorizationServer(serverUrl: string, discovery: { authorizationServerUrl: string; resourceMetadataUrl?: unknown } | undefined, fetchFn: FetchLike): Promise<string | undefined> {
  if (discovery === undefined) return undefined;
  try {
    const { discoverOAuthProtectedResourceMetadata } = await import("@modelcontextprotocol/client");
    const metadataUrl = typeof discovery.resourceMetadataUrl === "string" ? new URL(discovery.resourceMetadataUrl) : undefined;
    const timed: FetchLike = (input, init) => fetchFn(input, { ...init, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    const metadata = await discoverOAuthProtectedResourceMetadata(serverUrl, metadataUrl === undefined ? undefined : { resourceMetadataUrl: metadataUrl }, timed);
    const named = (metadata.authorization_servers ?? []).map(String);
    const same = (a: string) => new URL(a).href === new URL(discovery.authorizationServerUrl).href;
    return named.length === 0 || named.some(same) ? undefined : named[0];
  } catch {
    // Not found out (the resource is down too, a malformed document): the refresh failure stands as it is.
    return undefined;
  }
}

/** Issuer identifiers compared as the SDK does: a trailing slash makes no difference. */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, "") === b.replace(/\/$/, "");
}

/**
 * A pre-registered client id first used with one authorization server, now named another: the
 * SDK would drop the binding and try to register a new client there (an error about dynamic
 * registration that says nothing of the move). Nothing is sent; the person decides.
 */
export function clientBoundElsewhere(server: string, recorded: string, current: string): McpOAuthError {
  return new McpOAuthError(
    "MCP_OAUTH_FAILED",
    `server ${server} now names the authorization server ${current}, but its client id oauth.clientId was first used with ${recorded}; nothing was sent there. If the server really moved, run \`mcpvm mcp logout ${server}\` to forget the old binding, then \`mcpvm mcp login ${server}\`.`,
    { data: { server, recordedIssuer: recorded, currentIssuer: current } },
  );
}
