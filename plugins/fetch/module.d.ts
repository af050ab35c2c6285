/**
 * HTTP(S) requests from guest code, limited by the plugin's configuration: only hosts in
 * `allowDomains`, only public internet addresses (private, loopback, link-local, CGNAT, multicast
 * and similar are refused after DNS resolution), a response size cap, a time cap and a redirect cap.
 * Responses with any status are returned; failures to obtain one throw an Error with a stable
 * `code`: FETCH_INVALID_ARGUMENT, FETCH_INVALID_URL, FETCH_PROTOCOL_NOT_ALLOWED,
 * FETCH_DOMAIN_NOT_ALLOWED, FETCH_PRIVATE_ADDRESS, FETCH_DNS_FAILED, FETCH_NETWORK_ERROR,
 * FETCH_TOO_LARGE, FETCH_TIMEOUT, FETCH_ABORTED, FETCH_TOO_MANY_REDIRECTS, FETCH_BAD_REDIRECT,
 * FETCH_INVALID_JSON.
 */
declare module "host:fetch" {
  export interface HeadOptions {
    /** Request headers. Host, Content-Length, Connection, Transfer-Encoding, Accept-Encoding and similar are set by the plugin and refused here. */
    headers?: Record<string, string>;
    /** Default true. false: return a 3xx response as it is instead of following it. */
    followRedirects?: boolean;
    /** Milliseconds for the whole call; can only shorten the plugin's timeoutMs. */
    timeoutMs?: number;
  }

  export interface RequestOptions extends HeadOptions {
    /** How to return the body: "text" (default, decoded by the declared charset), "json" (parsed) or "binary" (Uint8Array). */
    responseType?: "text" | "json" | "binary";
  }

  export interface ResponseHead {
    status: number;
    statusText: string;
    /** True for status 200-299. */
    ok: boolean;
    /** The final URL, after redirects. */
    url: string;
    /** True when at least one redirect was followed. */
    redirected: boolean;
    /** Lowercase header names; repeated headers joined with ", ". */
    headers: Record<string, string>;
  }

  export interface Response<B = string> extends ResponseHead {
    body: B;
  }

  /**
   * GET a URL.
   * @example
   * const res = get("https://api.example.com/items?page=1", { responseType: "json" });
   * if (!res.ok) throw new Error(`HTTP ${res.status}`);
   * return res.body.items.length;
   */
  export function get(url: string, options?: RequestOptions & { responseType?: "text" }): Response<string>;
  export function get<T = unknown>(url: string, options: RequestOptions & { responseType: "json" }): Response<T>;
  export function get(url: string, options: RequestOptions & { responseType: "binary" }): Response<Uint8Array>;

  /** HEAD a URL: status and headers only (e.g. content-length before a large GET). */
  export function head(url: string, options?: HeadOptions): ResponseHead;

  /**
   * POST to a URL. A string body is sent as text/plain UTF-8, a Uint8Array as
   * application/octet-stream, any other value as JSON (application/json); a Content-Type header
   * in options overrides that.
   * @example const res = post("https://api.example.com/items", { name: "x" }, { responseType: "json" });
   */
  export function post(url: string, body?: unknown, options?: RequestOptions & { responseType?: "text" }): Response<string>;
  export function post<T = unknown>(url: string, body: unknown, options: RequestOptions & { responseType: "json" }): Response<T>;
  export function post(url: string, body: unknown, options: RequestOptions & { responseType: "binary" }): Response<Uint8Array>;
}
