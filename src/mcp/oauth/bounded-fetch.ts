import { McpOAuthError } from "./errors.js";
import type { FetchLike } from "./refresh-lock.js";

/** Metadata documents, registrations and token answers are a few KiB; real ones stay far below this. */
export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

/**
 * Caps the bodies of the OAuth requests that go through a server's transport fetch: everything
 * but the MCP endpoint itself (metadata documents, registration, token requests). The SDK reads
 * them whole with response.json(), and the authorization server a resource names may be on any
 * origin, contacted before the person is asked anything: one that answered with an endless
 * document grew the process by ~100 MB a second until the connect timed out (and kept reading after).
 */
export function boundOAuthResponses(
  inner: FetchLike,
  server: string,
  mcpUrl: string,
): FetchLike {
  const endpoint = new URL(mcpUrl).href;
  return async (input, init) => {
    const response = await inner(input, init);
    const url = new URL(input instanceof URL ? input.href : String(input));
    if (
      url.href === endpoint ||
      response.body === null ||
      [204, 205, 304].includes(response.status)
    )
      return response;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_OAUTH_RESPONSE_BYTES) {
        await reader.cancel().catch(() => undefined);
        // A TypeError, as fetch's own network failures are: the SDK passes those on, where it takes
        // any other failure of the resource metadata request for "no metadata" and guesses on.
        throw new TypeError("OAuth answer too large", {
          cause: new McpOAuthError(
            "MCP_OAUTH_FAILED",
            `server ${server}: the answer from ${url.origin}${url.pathname} is larger than ${MAX_OAUTH_RESPONSE_BYTES / 1024} KiB (an OAuth metadata document or token answer is a few KiB); refused. Ask the server's operator, or remove the server with \`mcpvm mcp remove ${server}\`.`,
            { data: { server, url: `${url.origin}${url.pathname}` } },
          ),
        });
      }
      chunks.push(value);
    }
    // The body is read (and decoded) already: the new response must not claim an encoding or length.
    const headers = new Headers(response.headers);
    headers.delete("content-encoding");
    headers.delete("content-length");
    const bounded = new Response(Buffer.concat(chunks), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
    // response.url is read-only on a constructed Response; the SDK's fetchWithinOrigin checks where a redirect led.
    Object.defineProperty(bounded, "url", { value: response.url });
    Object.defineProperty(bounded, "redirected", {
      value: response.redirected,
    });
    return bounded;
  };
}
