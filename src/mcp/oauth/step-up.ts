import type { FetchLike } from "./refresh-lock.js";

/**
 * The scope a resource's `403` with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"` asks for (MCP authorization, step-up; RFC 6750 §3.1); undefined for any other answer.
 */
export function insufficientScope(response: Response): string | undefined {
  if (response.status !== 403) return undefined;
  const header = response.headers.get("www-authenticate") ?? "";
  if (!/\berror="?insufficient_scope\b/.test(header)) return undefined;
  return /(?:^|[\s,])scope="([^"]*)"/.exec(header)?.[1]?.trim() || undefined;
}

/**
 * Tells `onScope` of every step-up challenge the server's traffic carries. The SDK handles the
 * challenge itself (a login with the wider scope), but tells its provider only "log in": mcpvm
 * needs the scope to say why a login is needed and to ask for it in a later `mcp login`.
 */
export function noteStepUps(inner: FetchLike, onScope: (scope: string) => void): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init);
    const scope = insufficientScope(response);
    if (scope !== undefined) onScope(scope);
    return response;
  };
}

/** Space-separated scope lists joined, each scope once, in first-seen order. */
export function mergeScopes(...scopes: readonly (string | undefined)[]): string {
  return [...new Set(scopes.flatMap((scope) => (scope ?? "").split(/\s+/)).filter((token) => token !== ""))].join(" ");
}

/**
 * The authorization URL asking for the step-up scopes too. A login that begins with a 401 (as
 * `mcp login` does) has the SDK ask for the resource's advertised scopes only, and the server's
 * next 403 would send the person round again.
 */
export function widenScope(url: URL, stepUpScope: string | undefined): URL {
  if (stepUpScope === undefined) return url;
  const asked = url.searchParams.get("scope") ?? undefined;
  const wider = mergeScopes(asked, stepUpScope);
  if (wider === asked) return url;
  const widened = new URL(url.href);
  widened.searchParams.set("scope", wider);
  return widened;
}
