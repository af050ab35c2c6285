import { buildDiscoveryUrls, selectClientAuthMethod, type FetchLike } from "@modelcontextprotocol/client";
import { errorMessage } from "../../util/errors.js";
import { isLoopbackHost } from "./redirect-listener.js";
import type { ServerLogin } from "./token-store.js";

interface RevocationMetadata {
  readonly revocation_endpoint?: unknown;
  readonly revocation_endpoint_auth_methods_supported?: unknown;
}

async function rawMetadata(authorizationServerUrl: string, fetchFn: FetchLike): Promise<RevocationMetadata | undefined> {
  for (const { url } of buildDiscoveryUrls(authorizationServerUrl)) {
    try {
      const response = await fetchFn(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(10_000) });
      if (!response.ok) continue;
      const document = (await response.json()) as unknown;
      if (typeof document === "object" && document !== null && "revocation_endpoint" in document) return document as RevocationMetadata;
    } catch {
      // The next well-known location.
    }
  }
  return undefined;
}

export type RevocationOutcome = "revoked" | "unsupported" | { readonly failed: string };

/**
 * RFC 7009 token revocation at logout (the SDK has no helper for it): the refresh token first (a
 * server revokes its access tokens with it), then the access token. Best effort: the tokens are
 * removed from the config home whatever the server says.
 */
export async function revokeTokens(login: ServerLogin, clientSecret: string | undefined, fetchFn: FetchLike = fetch): Promise<RevocationOutcome> {
  const stored = (login.discovery as { authorizationServerMetadata?: RevocationMetadata } | undefined)?.authorizationServerMetadata;
  // The SDK keeps OpenID metadata parsed by its own schema, which drops revocation_endpoint: read the document itself then.
  const metadata = typeof stored?.revocation_endpoint === "string" || login.discovery === undefined ? stored : await rawMetadata(login.discovery.authorizationServerUrl, fetchFn);
  const endpoint = typeof metadata?.revocation_endpoint === "string" ? metadata.revocation_endpoint : undefined;
  const clientId = login.client?.client_id ?? login.clientId;
  if (endpoint === undefined || login.tokens === undefined || clientId === undefined) return "unsupported";
  const url = new URL(endpoint);
  if (url.protocol !== "https:" && !isLoopbackHost(url.hostname)) return { failed: `the revocation endpoint ${url.origin} is not https` };
  const secret = clientSecret ?? login.client?.client_secret;
  const supported = Array.isArray(metadata?.revocation_endpoint_auth_methods_supported) ? (metadata.revocation_endpoint_auth_methods_supported as string[]) : [];
  const method = selectClientAuthMethod({ client_id: clientId, ...(secret === undefined ? {} : { client_secret: secret }) }, supported);
  const tokens: [string, string][] = [];
  if (login.tokens.refresh_token !== undefined) tokens.push([login.tokens.refresh_token, "refresh_token"]);
  tokens.push([login.tokens.access_token, "access_token"]);
  try {
    for (const [token, hint] of tokens) {
      const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
      const body = new URLSearchParams({ token, token_type_hint: hint });
      if (method === "client_secret_basic" && secret !== undefined) headers.set("authorization", `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`);
      else {
        body.set("client_id", clientId);
        if (method === "client_secret_post" && secret !== undefined) body.set("client_secret", secret);
      }
      const response = await fetchFn(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
      await response.text().catch(() => "");
      // 200 means revoked (or already unknown); 400 unsupported_token_type is acceptable for the access token.
      if (!response.ok && !(response.status === 400 && hint === "access_token")) return { failed: `HTTP ${response.status} from ${url.origin}` };
    }
    return "revoked";
  } catch (error) {
    return { failed: errorMessage(error) };
  }
}
