import type { IncomingHttpHeaders } from "node:http";
import type { HostCallContext } from "../../src/sandbox/types.js";
import { FetchError, showUrl } from "./errors.js";
import { sendHop } from "./hop.js";
import { withoutCredentials } from "./credential-headers.js";
import { checkUrl, type HostPattern } from "./host-policy.js";
import type { AddressGuard, Resolver } from "./resolve.js";

export interface FetchPolicy {
  readonly patterns: readonly HostPattern[];
  readonly guard: AddressGuard;
  readonly resolver: Resolver;
  readonly maxResponseBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  /** Header names (lower case) the user marked as credentials, beside those credential-headers.ts knows. */
  readonly credentialHeaders: ReadonlySet<string>;
  readonly now: () => number;
}

export interface FetchCall {
  readonly method: "GET" | "HEAD" | "POST";
  readonly url: string;
  /** Lowercase names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly followRedirects: boolean;
  /** A per-call limit; it can only shorten the configured timeoutMs. */
  readonly timeoutMs?: number;
}

export interface RawResponse {
  readonly status: number;
  readonly statusText: string;
  readonly url: URL;
  readonly redirected: boolean;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function isFollowedRedirect(call: FetchCall, status: number, headers: IncomingHttpHeaders): boolean {
  return call.followRedirects && REDIRECTS.has(status) && typeof headers.location === "string";
}

function withoutKeys(headers: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !keys.includes(name)));
}

/**
 * Perform a call under the policy: every hop's URL is checked against the allowlist, its host
 * resolved and every address checked, and the connection pinned to the checked address. One time
 * budget (the smallest of timeoutMs, the call's timeoutMs and the run's deadline) covers all hops.
 */
export async function runFetch(policy: FetchPolicy, call: FetchCall, context: Pick<HostCallContext, "signal" | "deadline">): Promise<RawResponse> {
  const start = checkUrl(call.url, policy.patterns);
  let url = start;
  const budget = Math.min(policy.timeoutMs, call.timeoutMs ?? Number.POSITIVE_INFINITY, context.deadline - policy.now());
  if (budget <= 0) {
    throw new FetchError("FETCH_TIMEOUT", "the run's time budget is used up; no request was sent", { data: { url: showUrl(url) } });
  }
  if (context.signal.aborted) throw new FetchError("FETCH_ABORTED", "the run was cancelled before the request was sent");
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new FetchError("FETCH_TIMEOUT", `no complete response from ${showUrl(url)} within ${budget} ms`, { data: { url: showUrl(url) } })),
    budget,
  );
  const onCancel = () => controller.abort(new FetchError("FETCH_ABORTED", `the request to ${showUrl(url)} was cancelled because the run ended`));
  context.signal.addEventListener("abort", onCancel, { once: true });
  try {
    let { method, body } = call;
    let headers = { ...call.headers };
    for (let redirects = 0; ; redirects += 1) {
      const pinned = await policy.guard.pin(url, policy.resolver, controller.signal);
      const response = await sendHop(
        { url, method, headers, body, pinned },
        {
          maxBytes: policy.maxResponseBytes,
          signal: controller.signal,
          wantBody: (status, head) => method !== "HEAD" && !isFollowedRedirect(call, status, head),
        },
      );
      const location = response.headers.location;
      if (!isFollowedRedirect(call, response.status, response.headers) || location === undefined) {
        return { ...response, url, redirected: redirects > 0 };
      }
      if (redirects >= policy.maxRedirects) {
        throw new FetchError("FETCH_TOO_MANY_REDIRECTS", `more than maxRedirects (${policy.maxRedirects}) redirects starting at ${showUrl(start)}`, {
          data: { url: showUrl(url) },
        });
      }
      const next = checkUrl(location, policy.patterns, url);
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
      if (response.status === 303 || (method === "POST" && response.status <= 302)) {
        method = method === "HEAD" ? "HEAD" : "GET";
        body = undefined;
        headers = withoutKeys(headers, ["content-type"]);
      }
      // Once dropped they stay dropped, even if a later hop returns to the first origin (as in browsers).
      if (next.origin !== url.origin) headers = withoutCredentials(headers, policy.credentialHeaders);
      url = next;
    }
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener("abort", onCancel);
  }
}
