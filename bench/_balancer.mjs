#!/usr/bin/env node
// A plain round-robin HTTP load balancer for bench/replicas.mjs, in its own process (its CPU is
// measured apart from the gateways'): each request to the next replica, no stickiness, keep-alive
// connections to the replicas as a real balancer keeps them. (tests/gateway/round-robin-proxy.ts is
// the test suite's variant: a fresh connection per request and a passive health check, for the
// SIGKILL test.)
//   node bench/_balancer.mjs <port> [<port> …]   prints {"url"}; on the end of stdin prints {"perReplica"} and exits
import { spawn } from "node:child_process";
import { Agent, createServer, request } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export async function startBalancer(ports) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...ports.map(String)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error("the balancer exited before listening");
  const balancer = { url: new URL(JSON.parse(first.value).url), pid: child.pid, perReplica: [] };
  balancer.close = async () => {
    child.stdin.end();
    const last = await lines.next();
    if (!last.done) balancer.perReplica = JSON.parse(last.value).perReplica;
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve()));
  };
  return balancer;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ports = process.argv.slice(2).map(Number);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const perReplica = ports.map(() => 0);
  let next = 0;
  // The request body is read first (MCP requests are small JSON) so that a request sent on a kept-alive
  // connection the replica was closing at that instant (ECONNRESET) can be sent again on a new one.
  const forward = (req, res, body, index, fresh) => {
    const upstream = request(
      { ...(fresh ? { agent: false } : { agent }), host: "127.0.0.1", port: ports[index], method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${ports[index]}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", (error) => {
      if (!fresh && upstream.reusedSocket && error.code === "ECONNRESET") return forward(req, res, body, index, true);
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(`replica ${index}: ${error.code ?? error.message}`);
      else res.destroy();
    });
    upstream.end(body);
  };
  const server = createServer(async (req, res) => {
    const index = next++ % ports.length;
    perReplica[index] += 1;
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    forward(req, res, Buffer.concat(chunks), index, false);
  });
  // Idle client connections are kept as long as common balancers keep them (nginx 75 s, AWS ALB 60 s).
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/mcp` })}\n`));
  process.stdin.resume();
  process.stdin.on("end", () => {
    process.stdout.write(`${JSON.stringify({ perReplica })}\n`, () => process.exit(0));
  });
}
