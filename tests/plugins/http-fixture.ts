import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A real HTTP server on 127.0.0.1 whose routes exercise the fetch plugin. */
export interface TestServer {
  readonly port: number;
  readonly origin: string;
  /** Paths requested so far, in order (to prove a refused request never reached the server). */
  readonly hits: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

async function route(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const url = new URL(req.url ?? "/", origin);
  const send = (status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(body)), ...extra });
    res.end(body);
  };
  switch (url.pathname) {
    case "/text":
      return send(200, "text/plain; charset=utf-8", "hello wörld");
    case "/json":
      return send(200, "application/json", `{"items":[1,2,3],"__proto__":{"polluted":true}}`);
    case "/not-json":
      return send(200, "text/html", "<html>nope</html>");
    case "/latin1":
      return send(200, "text/plain; charset=iso-8859-1", Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    case "/binary":
      return send(200, "application/octet-stream", Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
    case "/status":
      return send(Number(url.searchParams.get("code") ?? 500), "text/plain", "status page");
    case "/big":
      return send(200, "text/plain", "x".repeat(Number(url.searchParams.get("n") ?? 2000)));
    case "/big-chunked": {
      res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 100; i += 1) res.write("y".repeat(1000));
      return void res.end();
    }
    case "/redirect": {
      res.writeHead(Number(url.searchParams.get("code") ?? 302), { location: url.searchParams.get("to") ?? "/text" });
      return void res.end();
    }
    case "/loop": {
      res.writeHead(302, { location: "/loop" });
      return void res.end();
    }
    case "/echo": {
      const body = await readBody(req);
      return send(200, "application/json", JSON.stringify({ method: req.method, headers: req.headers, body }));
    }
    case "/slow":
      // Never answers; the client's timeout must end the call. close() drops the socket.
      return;
    default:
      return send(404, "text/plain", "not found");
  }
}

export async function startTestServer(): Promise<TestServer> {
  const hits: string[] = [];
  let origin = "";
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "");
    void route(req, res, origin);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    hits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
