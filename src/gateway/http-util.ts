import type { IncomingMessage, ServerResponse } from "node:http";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { telemetry } from "../telemetry/telemetry.js";
import type { ListenAddress } from "./address.js";
import type { Rate } from "./clients/schema.js";

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

/** The methods each path answers; any other is 405 with `Allow` (RFC 9110 §15.5.6), before authentication: it reveals nothing. */
export const ALLOWED_METHODS: Readonly<Record<string, string>> = {
  "/mcp": "GET, POST, DELETE",
  "/health": "GET",
  "/healthz": "GET",
  "/readyz": "GET",
  "/metrics": "GET",
};

export function methodNotAllowed(res: ServerResponse, path: string, allow: string): void {
  rpcError(res, 405, -32000, `Method not allowed: ${path} answers ${allow}.`, { allow });
}

/** 429 for a client over its rate: when to retry, or (a batch larger than its burst) to send fewer messages at once. */
export function rateLimited(res: ServerResponse, client: string, rate: Rate, waitMs: number, messages: number): void {
  const per = `${rate.count} per ${rate.perMs === 60_000 ? "minute" : "second"}`;
  if (!Number.isFinite(waitMs)) {
    return rpcError(res, 429, -32000, `Too many requests: a batch of ${messages} messages counts as ${messages} requests, and client "${client}" is limited to ${per}; send at most ${rate.count} at once.`);
  }
  const seconds = String(Math.ceil(waitMs / 1000));
  rpcError(res, 429, -32000, `Too many requests: client "${client}" is limited to ${per}${messages > 1 ? ` (a batch counts each of its ${messages} messages)` : ""}; retry after ${seconds} s.`, { "retry-after": seconds });
}

/**
 * The request body as text, or undefined past MAX_BODY_BYTES (the request is then destroyed, as an
 * abandoned async iteration of it would be, its socket kept for the answer). Event-driven: an async iterator per request was a
 * measurable part of a fast-lane call.
 */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        // What node does to a server request whose `for await` is abandoned (its stream destroyer):
        // the request is destroyed but its socket is kept, so the 413 answer still reaches the client.
        (req as unknown as { socket: unknown }).socket = null;
        req.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
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
