import { McpOAuthError } from "./errors.js";
import type { FetchLike } from "./refresh-lock.js";

/** Metadata documents, registrations and token answers are a few KiB; real ones stay far below this. */
export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

/**
 * Guards the OAuth requests that go through a server's transport fetch: everything but MCP traffic
 * (metadata documents, registration, token requests).
 *
 * - Their bodies are capped. The SDK reads them whole with response.json(), and the authorization
 *   server a resource names may be on any origin, contacted before the person is asked anything:
 *   one that answered with an endless document grew the process by ~100 MB a second until it
 *   crashed (RangeError: Invalid array length).
 * - A request that cannot be sent names its URL and why: fetch itself says only "fetch failed".
 *
 * Both failures are TypeErrors carrying an McpOAuthError as cause (failure.ts unwraps it): the SDK
 * passes TypeErrors on, where it takes any other failure of the resource metadata request for
 * "no metadata" and guesses on.
 */
export function boundOAuthResponses(inner: FetchLike, server: string, mcpUrl: string): FetchLike {
  const endpoint = new URL(mcpUrl).href;
  return async (input, init) => {
    const url = new URL(input instanceof URL ? input.href : String(input));
    const where = `${url.origin}${url.pathname}`;
    // MCP traffic (the endpoint, also after a redirect, and an SSE stream) streams and is not capped.
    if (url.href === endpoint || (new Headers(init?.headers).get("accept") ?? "").includes("text/event-stream")) return inner(input, init);
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      if (!(error instanceof TypeError) || error.cause instanceof McpOAuthError) throw error;
      const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
      const why = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : error.message;
      throw oauthTypeError(
        error.message,
        new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: cannot reach ${where} (${why}), an OAuth endpoint of its login. Check that it is up and reachable from here, then try again.`, {
          data: { server, url: where, reason: why },
          cause: error,
        }),
      );
    }
    if (response.body === null || [204, 205, 304].includes(response.status)) return response;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_OAUTH_RESPONSE_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw oauthTypeError(
          "OAuth answer too large",
          new McpOAuthError(
            "MCP_OAUTH_FAILED",
            `server ${server}: the answer from ${where} is larger than ${MAX_OAUTH_RESPONSE_BYTES / 1024} KiB (an OAuth metadata document or token answer is a few KiB); refused. Ask the server's operator, or remove the server with \`mcpvm mcp remove ${server}\`.`,
            { data: { server, url: where } },
          ),
        );
      }
      chunks.push(value);
    }
    // The body is read (and decoded) already: the new response must not claim an encoding or length.
    const headers = new Headers(response.headers);
    headers.delete("content-encoding");
    headers.delete("content-length");
    const bounded = new Response(Buffer.concat(chunks), { status: response.status, statusText: response.statusText, headers });
    // url and redirected are read-only on a constructed Response; the SDK reads where a redirect led.
    Object.defineProperty(bounded, "url", { value: response.url });
    Object.defineProperty(bounded, "redirected", { value: response.redirected });
    return bounded;
  };
}

export function oauthTypeError(message: string, cause: McpOAuthError): TypeError {
  return new TypeError(message, { cause });
}
