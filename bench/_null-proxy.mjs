#!/usr/bin/env node
// The floor for any MCP gateway on this SDK, for bench/gateway.mjs: a minimal proxy built from the
// same SDK v2 parts as mcpvm's gateway (a Server in front, a Client behind) that forwards
// tools/list and tools/call and does nothing else — no approval, validation, rate limit or logging.
//   node bench/_null-proxy.mjs stdio <command> [args...]   MCP on stdin/stdout, upstream over stdio
//   node bench/_null-proxy.mjs http <upstream URL>         2025-era streamable HTTP sessions (JSON
//                                                          responses, as the gateway answers them),
//                                                          prints {"url"} on stdout, exits when stdin ends
//   node bench/_null-proxy.mjs http-stdio <command> [args...]  the same HTTP front, upstream over stdio
//                                                          (the floor of the gateway's load run); also
//                                                          answers 2026-07-28 requests (createMcpHandler)
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { classifyInboundRequest, createMcpHandler, Server } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const [front, ...upstreamArgs] = process.argv.slice(2);
const upstream = new Client({ name: "null-proxy", version: "1" });
await upstream.connect(
  front === "stdio"
    ? new StdioClientTransport({ command: upstreamArgs[0], args: upstreamArgs.slice(1), env: process.env, stderr: "ignore" })
    : front === "http-stdio"
      ? new StdioClientTransport({ command: upstreamArgs[0], args: upstreamArgs.slice(1), env: process.env, stderr: "ignore" })
      : new StreamableHTTPClientTransport(new URL(upstreamArgs[0])),
);

function proxyServer() {
  const server = new Server({ name: "null-proxy", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", (request) => upstream.listTools(request.params));
  server.setRequestHandler("tools/call", (request) => upstream.callTool({ name: request.params.name, arguments: request.params.arguments }));
  return server;
}

// Both fronts end with stdin (the stdio client disconnecting, or the bench closing it), closing the upstream first.
process.stdin.on("end", () => void upstream.close().finally(() => process.exit(0)));
if (front === "stdio") {
  await proxyServer().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  // 2026-07-28 requests (no session) go to the SDK's per-request handler, as in the gateway.
  const modern = createMcpHandler(() => proxyServer(), { legacy: "reject" });
  const modernNode = toNodeHandler(modern);
  const http = createServer(async (req, res) => {
    // The body parsed here, as the gateway does: the transport's own web-stream body reading costs more.
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const header = (name) => req.headers[name];
    const era = req.method === "POST" ? classifyInboundRequest({ httpMethod: "POST", protocolVersionHeader: header("mcp-protocol-version"), mcpMethodHeader: header("mcp-method"), mcpNameHeader: header("mcp-name"), body }).kind : "legacy";
    if (era !== "legacy") return modernNode(req, res, body);
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true, onsessioninitialized: (sid) => sessions.set(sid, transport) });
      await proxyServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`));
  process.stdin.resume();
}
