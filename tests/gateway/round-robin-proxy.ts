import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A plain round-robin HTTP load balancer for tests: no stickiness, each request to the next
 * replica. A replica that refuses connections is skipped until `revive` (a passive health check,
 * like a real balancer's) and the request goes to the next one; a request whose replica dies
 * mid-way fails (502, or a cut response).
 */
export interface RoundRobinProxy {
  readonly url: URL;
  readonly perReplica: number[];
  revive(index: number): void;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: ReadonlyArray<{ port: number }>): Promise<RoundRobinProxy> {
  const dead = new Set<number>();
  const perReplica = targets.map(() => 0);
  let next = 0;
  const pick = (): number | undefined => {
    for (let i = 0; i < targets.length; i++) {
      const index = next++ % targets.length;
      if (!dead.has(index)) return index;
    }
    return undefined;
  };
  // A refused connection never reached the replica, so the request is sent on to the next one, as
  // nginx's `proxy_next_upstream error` does; only requests a replica had accepted can fail.
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse): void => {
    const index = pick();
    if (index === undefined) {
      res.writeHead(502).end("no replica");
      return;
    }
    perReplica[index] = (perReplica[index] ?? 0) + 1;
    // A fresh connection per request (agent: false): reusing a keep-alive socket the replica is closing
    // at that instant resets it (ECONNRESET), a race of this proxy, not of the gateway.
    const upstream = request({ agent: false, host: "127.0.0.1", port: targets[index]?.port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${targets[index]?.port}` } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED") {
        dead.add(index);
        forward(req, body, res);
        return;
      }
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(`replica ${index}: ${error.code ?? error.message}`);
      else res.destroy();
    });
    upstream.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => forward(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    perReplica,
    revive: (index) => dead.delete(index),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
