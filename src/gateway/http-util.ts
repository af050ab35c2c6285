import type { IncomingMessage, ServerResponse } from "node:http";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { telemetry } from "../telemetry/telemetry.js";
import type { ListenAddress } from "./address.js";

/** The largest request body the gateway reads (413 past it). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A bounded memory of ended session ids (oldest forgotten first). */
export class EndedSessions {
  private readonly ids = new Set<string>();

  constructor(private readonly cap: number) {}

  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.cap) this.ids.delete(this.ids.values().next().value as string);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The first protocol revision of the modern (per-request, sessionless) era; versions are ISO dates. */
const FIRST_MODERN_PROTOCOL_VERSION = "2026-07-28";

function namesModernVersion(value: string | undefined): boolean {
  return value !== undefined && value.trim() >= FIRST_MODERN_PROTOCOL_VERSION;
}

/** A single JSON-RPC request object: a method and an id, and nothing that makes it look like a response. */
function isPlainJsonRpcRequest(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const message = body as Record<string, unknown>;
  return typeof message.method === "string" && "id" in message && !("result" in message) && !("error" in message);
}

/**
 * The era decision of the SDK's `isLegacyRequest` for a POST whose JSON body is already parsed,
 * made with the classifier it runs (`classifyInboundRequest`) on the same headers, without first
 * building a web Request of the body (the modern handler builds its own; doing it twice cost a
 * measurable part of every call).
 */
export function isLegacyPost(req: IncomingMessage, body: unknown): boolean {
  // The common case, decided without the classifier's schema checks (a measurable part of a call
  // under load): a JSON-RPC request under a 2026-07-28-or-later MCP-Protocol-Version header is
  // never legacy (the SDK serves it or refuses it), and the modern handler classifies it in full.
  if (namesModernVersion(header(req, "mcp-protocol-version")) && isPlainJsonRpcRequest(body)) return false;
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: header(req, "mcp-protocol-version"),
    mcpMethodHeader: header(req, "mcp-method"),
    mcpNameHeader: header(req, "mcp-name"),
    body,
  });
  return outcome.kind === "legacy";
}

/** Prometheus text from the telemetry's reader, when OTEL_METRICS_EXPORTER asks for it; the caller has checked the token. */
export function serveMetrics(req: IncomingMessage, res: ServerResponse): void {
  const handler = telemetry().metricsHandler;
  if (handler === undefined) return sendJson(res, 404, { error: "metrics are off: start the gateway with OTEL_METRICS_EXPORTER=prometheus to serve /metrics (docs/GATEWAY.md)" });
  handler(req, res);
}

export function allowedHostnames(address: ListenAddress): string[] {
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  return [...new Set(["localhost", "127.0.0.1", "[::1]", host])];
}
