import { createHash } from "node:crypto";
import { withFileLock } from "../../util/file-lock.js";
import { McpOAuthError } from "./errors.js";

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** A refresh request that hangs would hold every other process's refresh of this login. */
const REFRESH_TIMEOUT_MS = 10_000;

/** What the refresh lock needs of the login it guards. */
export interface RefreshedLogin {
  /** oauth-tokens.json: the lock lives beside it. */
  readonly storeFile: string;
  readonly server: string;
  /** The refresh token stored now (re-read from the file), when the stored login is this definition's. */
  storedRefreshToken(): Promise<string | undefined>;
  /** Stores what a refresh returned, before any other process may refresh. */
  saveRefreshed(tokens: Record<string, unknown>): Promise<void>;
  /**
   * Told how each refresh went: undefined when the authorization server answered (with tokens or
   * a refusal), else why it could not (unreachable, a 5xx), which the SDK takes for "log in again".
   */
  refreshOutcome(failure: McpOAuthError | undefined): void;
}

/**
 * Wraps the fetch the SDK uses for token requests so that refreshes of one login are one at a
 * time across processes (a gateway, a REPL, `mcpvm run` in another terminal). Authorization servers
 * that rotate refresh tokens (RFC 9700 §4.14.2) take each one once, and many revoke the whole
 * family when a spent one comes back: a process that sent the refresh token it read at start-up
 * after another process had spent it would log the person out everywhere. Inside the lock the
 * stored refresh token is read again and sent instead of the one held in memory, and the answer
 * is stored before the lock is let go, so the next process reads the new one.
 */
export function serializeRefreshes(inner: FetchLike, login: RefreshedLogin): FetchLike {
  const lockFile = `${login.storeFile}.refresh-${createHash("sha256").update(login.server).digest("hex").slice(0, 12)}`;
  return async (input, init) => {
    const body = init?.body;
    if (!(body instanceof URLSearchParams) || body.get("grant_type") !== "refresh_token") return inner(input, init);
    return withFileLock(lockFile, async () => {
      const params = new URLSearchParams(body);
      const stored = await login.storedRefreshToken();
      const substituted = stored !== undefined && stored !== params.get("refresh_token");
      if (substituted) params.set("refresh_token", stored);
      const timeout = AbortSignal.timeout(REFRESH_TIMEOUT_MS);
      let response: Response;
      try {
        response = await inner(input, { ...init, body: params, signal: init?.signal == null ? timeout : AbortSignal.any([init.signal, timeout]) });
      } catch (error) {
        login.refreshOutcome(unanswered(login.server, input, error));
        throw error;
      }
      login.refreshOutcome(response.status >= 500 ? unanswered(login.server, input, `it answered HTTP ${response.status}`) : undefined);
      if (!response.ok) return response;
      const answer: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (typeof answer !== "object" || answer === null || typeof (answer as { access_token?: unknown }).access_token !== "string") return response;
      // A server that does not rotate answers without a refresh token: the one sent stays valid.
      const tokens = { refresh_token: params.get("refresh_token") ?? undefined, ...(answer as Record<string, unknown>) };
      await login.saveRefreshed(tokens);
      // The SDK keeps the refresh token it sent when the answer has none; it must keep the one that was sent.
      if (!substituted || "refresh_token" in answer) return response;
      return new Response(JSON.stringify(tokens), { status: response.status, statusText: response.statusText, headers: { "content-type": "application/json" } });
    });
  };
}

/** A refresh the authorization server could not answer: the login is kept, and nobody is sent to log in again. */
function unanswered(server: string, input: string | URL, error: unknown): McpOAuthError {
  const url = new URL(input instanceof URL ? input.href : input);
  const cause = error instanceof TypeError && error.cause instanceof McpOAuthError ? error.cause : undefined;
  const reason = (cause?.data as { reason?: unknown } | undefined)?.reason;
  const why =
    typeof error === "string" ? error : error instanceof Error && error.name === "TimeoutError" ? `no answer within ${REFRESH_TIMEOUT_MS / 1000} s` : typeof reason === "string" ? reason : error instanceof Error ? error.message : String(error);
  return new McpOAuthError(
    "MCP_OAUTH_FAILED",
    `server ${server}: its access token needs a refresh, and the token endpoint ${url.origin}${url.pathname} could not give one (${why}). The login is kept: try again once that server is reachable (logging in again would need it too).`,
    { data: { server, url: `${url.origin}${url.pathname}`, loginKept: true } },
  );
}
