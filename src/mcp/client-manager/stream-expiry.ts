type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** A stream is never ended sooner than this after it opened: a token that lives seconds must not make a busy loop. */
const MIN_STREAM_MS = 1_000;

/**
 * The server→client stream of a streamable HTTP connection (the GET that stays open) is authorized
 * once, when it opens, by the access token it carries; the SDK never looks at it again, so it would
 * go on receiving under a token long expired (or refused since). Here a stream opened with a token
 * whose expiry is known ends cleanly when that token expires: the SDK opens it again, and its
 * request carries a fresh token (refreshed, or fetched anew), checked by the server like any other.
 */
export function endStreamsAtTokenExpiry(inner: FetchLike, expiryOf: (accessToken: string) => number | undefined, now: () => number = Date.now): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init);
    if ((init?.method ?? "GET").toUpperCase() !== "GET" || !response.ok || response.body === null) return response;
    if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    const authorization = new Headers(init?.headers).get("authorization");
    const token = authorization?.startsWith("Bearer ") === true ? authorization.slice(7) : undefined;
    const expiresAt = token === undefined ? undefined : expiryOf(token);
    if (expiresAt === undefined) return response;
    const reader = response.body.getReader();
    let ended = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setTimeout(() => {
          ended = true;
          void reader.cancel().catch(() => undefined);
          controller.close();
        }, Math.max(MIN_STREAM_MS, expiresAt - now()));
        timer.unref?.();
      },
      async pull(controller) {
        const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (ended) return;
        if (done) {
          ended = true;
          clearTimeout(timer);
          controller.close();
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        ended = true;
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    const ending = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // url is read-only on a constructed Response; the SDK reads where a redirect led.
    Object.defineProperty(ending, "url", { value: response.url });
    return ending;
  };
}
