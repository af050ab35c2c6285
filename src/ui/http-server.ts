import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { guardRequest, TOKEN_HEADER } from "./request-guard.js";
import type { Router } from "./api/router.js";
import { sendJson } from "./api/router.js";
import { securityHeaders, serveAsset } from "./static-assets.js";

export interface UiHttpOptions {
  readonly router: Router;
  readonly assetsDir: string;
  readonly token: string;
  /** 0: a free port. */
  readonly port: number;
}

export interface UiHttpServer {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Refusals are plain text for the page URL (a person reads them) and JSON for the API. */
function refuse(res: ServerResponse, path: string, status: number, code: string, message: string): void {
  if (path.startsWith("/api/")) {
    sendJson(res, status, { error: { code, message, exitCode: 2 } });
    return;
  }
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...securityHeaders() });
  res.end(`${message}\n`);
}

/** The dashboard's listener: 127.0.0.1 only, whatever the caller asks; every request passes the guard. */
export async function listenUi(options: UiHttpOptions): Promise<UiHttpServer> {
  let port = options.port;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const verdict = guardRequest(
      {
        method: req.method ?? "GET",
        path: url.pathname,
        host: header(req, "host"),
        origin: header(req, "origin"),
        secFetchSite: header(req, "sec-fetch-site"),
        contentType: header(req, "content-type"),
        headerToken: header(req, TOKEN_HEADER),
        queryToken: url.searchParams.get("token"),
      },
      { port, token: options.token },
    );
    if (!verdict.ok) {
      refuse(res, url.pathname, verdict.status, verdict.code, verdict.message);
      return;
    }
    if (url.pathname.startsWith("/api/")) {
      void options.router.handle(req, res, url);
      return;
    }
    void serveAsset(res, options.assetsDir, url.pathname).then((served) => {
      if (!served) refuse(res, url.pathname, 404, "UI_NOT_FOUND", `Nothing at ${url.pathname}.`);
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 0; // a run may take its whole wall budget
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
