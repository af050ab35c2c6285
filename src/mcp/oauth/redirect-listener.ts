import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpOAuthError } from "./errors.js";
import type { ServerLogin } from "./token-store.js";

const CALLBACK_PATH = "/callback";
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

const PAGE = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/**
 * The loopback end of the authorization redirect (RFC 8252 §7.3): an HTTP listener on 127.0.0.1
 * only, on a random port unless the server's `oauth.callbackPort` fixes one. It hands over the
 * first redirect's query after a login began to wait; nothing else is served.
 */
export class RedirectListener {
  private waiting: { resolve: (params: URLSearchParams) => void } | undefined;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    server.on("request", (request, response) => {
      const url = new URL(request.url ?? "/", `http://127.0.0.1:${this.port}`);
      if (request.method !== "GET" || url.pathname !== CALLBACK_PATH) {
        response.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting === undefined) {
        response.writeHead(400, headers).end(PAGE("No login in progress", "mcpvm is not waiting for a login here now (this page may be from an earlier login). Start the login again from mcpvm."));
        return;
      }
      const failed = url.searchParams.has("error");
      response
        .writeHead(failed ? 400 : 200, headers)
        .end(failed ? PAGE("Login failed", "The authorization server refused the login. Go back to mcpvm (the terminal or the dashboard) to see why.") : PAGE("Logged in", "mcpvm received the authorization. You can close this tab and go back to mcpvm (the terminal or the dashboard)."));
      waiting.resolve(url.searchParams);
    });
  }

  static async listen(server: string, port: number): Promise<RedirectListener> {
    const http = createServer();
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, "127.0.0.1", () => {
        http.off("error", reject);
        resolve();
      });
    }).catch((error: NodeJS.ErrnoException) => {
      throw new McpOAuthError(
        "MCP_OAUTH_FAILED",
        `server ${server}: cannot listen for the login redirect on 127.0.0.1 port ${port} (${error.code ?? error.message}). ${port === 0 ? "" : `Free that port, or change "oauth.callbackPort" of ${server} in config.json.`}`,
        { data: { server, port }, cause: error },
      );
    });
    http.unref();
    return new RedirectListener(http, (http.address() as AddressInfo).port);
  }

  get redirectUri(): string {
    return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
  }

  /**
   * The next redirect's query. Called before the authorization URL is shown, so a redirect that
   * came earlier is not this login's (a reloaded tab of the last one): it was answered "no login in
   * progress" and is not kept, where it would have failed this login with a state mismatch.
   */
  next(): Promise<URLSearchParams> {
    return new Promise((resolve) => (this.waiting = { resolve }));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

}

/**
 * A redirect URL pasted back over SSH: only one that goes to this machine's listener is taken, so
 * a URL of some other site (a phishing page's) is never mistaken for the authorization response.
 */
export function parsePastedRedirect(server: string, pasted: string, port: number): URLSearchParams {
  let url: URL;
  try {
    url = new URL(pasted.trim());
  } catch {
    throw new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: what was pasted is not a URL; paste the whole address the browser was sent to (it starts with http://127.0.0.1:${port}${CALLBACK_PATH}).`, { data: { server } });
  }
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) {
    throw new McpOAuthError("MCP_OAUTH_INSECURE", `server ${server}: the pasted redirect goes to ${url.host}, not to this machine's loopback listener (127.0.0.1 port ${port}); refusing it.`, {
      data: { server, host: url.host },
    });
  }
  if (url.pathname !== CALLBACK_PATH || (url.port !== "" && Number(url.port) !== port)) {
    throw new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: the pasted redirect is not for this login (expected http://127.0.0.1:${port}${CALLBACK_PATH}?…).`, { data: { server } });
  }
  return url.searchParams;
}

/** The loopback port a stored registration (DCR) named in its redirect URI, to listen on it again. */
export function registeredPort(client: ServerLogin["client"]): number | undefined {
  const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  if (!Array.isArray(uris) || typeof uris[0] !== "string") return undefined;
  try {
    const url = new URL(uris[0]);
    return isLoopbackHost(url.hostname) && url.port !== "" ? Number(url.port) : undefined;
  } catch {
    return undefined;
  }
}
