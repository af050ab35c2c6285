import type { OAuthSettings } from "./settings.js";

/** RFC 9728 §3: the well-known prefix of protected resource metadata. */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** The resource's path without a trailing slash ("" for the origin itself). */
function resourcePath(resource: string): string {
  return new URL(resource).pathname.replace(/\/+$/, "");
}

/** Where a client finds the metadata of `resource` (RFC 9728 §3.1: the well-known segment, then the resource's path). */
export function metadataUrlFor(resource: string): string {
  return `${new URL(resource).origin}${PROTECTED_RESOURCE_PATH}${resourcePath(resource)}`;
}

/**
 * The paths this gateway answers with its metadata: the path-suffixed form for the public
 * resource URL and for /mcp as the gateway itself sees it (a proxy may mount it elsewhere), and
 * the bare form older clients try.
 */
export function isMetadataPath(path: string, resource: string): boolean {
  return path === PROTECTED_RESOURCE_PATH || path === `${PROTECTED_RESOURCE_PATH}${resourcePath(resource)}` || path === `${PROTECTED_RESOURCE_PATH}/mcp`;
}

/** RFC 9728 §2 metadata: which authorization server issues tokens for this resource, and how to send them. */
export function protectedResourceMetadata(settings: Pick<OAuthSettings, "issuer" | "requiredScopes" | "scopesSupported" | "resourceName">, resource: string): Record<string, unknown> {
  const scopes = settings.scopesSupported ?? settings.requiredScopes;
  return {
    resource,
    authorization_servers: [settings.issuer],
    bearer_methods_supported: ["header"],
    ...(scopes.length === 0 ? {} : { scopes_supported: scopes }),
    resource_name: settings.resourceName ?? "mcpvm gateway",
  };
}
