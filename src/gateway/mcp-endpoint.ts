import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { isInitializeRequest, ProtocolError } from "@modelcontextprotocol/server";
import { errorMessage } from "../util/errors.js";
import type { ClientRateLimiter } from "./clients/rate-limiter.js";
import { identityOf, passthroughReach, type ClientScope } from "./clients/scope.js";
import { trackDelivery } from "./event-store.js";
import type { FastLane } from "./fast-lane/fast-lane.js";
import { cancelledRequestId } from "./fast-lane/recognize.js";
import { isLegacyPost, MAX_BODY_BYTES, rateLimited, readBody, rpcError, sendJson } from "./http-util.js";
import type { LegacySessions } from "./legacy-sessions.js";
import { listenedResources } from "./passthrough/listen.js";
import type { Passthrough } from "./passthrough/passthrough.js";
import { cancelWhenClosed } from "./session-close.js";

/** How long a 2025 request whose stream closed waits for its client to resume (Last-Event-ID) before it is cancelled. */
const RESUME_GRACE_MS = 3_000;

export interface McpEndpointDeps {
  readonly sessions: LegacySessions;
  /** The SDK's per-request handler of 2026-07-28 (modern) requests, as a Node handler taking the parsed body. */
  readonly modern: (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>;
  readonly fastLane: FastLane | undefined;
  readonly passthrough: Passthrough | undefined;
  readonly rates: ClientRateLimiter;
  readonly logger: Logger;
}

export type McpEndpoint = (req: IncomingMessage, res: ServerResponse, client: ClientScope) => Promise<void>;

/**
 * /mcp for an authenticated client: 2026-07-28 requests to the fast lane or the SDK's handler (a
 * `subscriptions/listen` stream holding its upstream subscriptions while open), 2025-era ones to
 * the client's own session (GET streams, resumption with Last-Event-ID, DELETE), or a new session on initialize.
 */
export function mcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  const { sessions, fastLane, passthrough, rates, logger } = deps;
  return async (req, res, client) => {
    const sessionHeader = req.headers["mcp-session-id"];
    const sessionId = typeof sessionHeader === "string" ? sessionHeader : undefined;
    const remote = req.socket.remoteAddress ?? "unknown";
    if (req.method !== "POST") {
      const transport = sessionId === undefined ? undefined : await sessions.own(sessionId, client, remote);
      if (transport !== undefined && sessionId !== undefined) {
        const lastEventId = req.headers["last-event-id"];
        if (req.method === "GET" && typeof lastEventId === "string" && sessions.events(transport)?.knows(lastEventId) !== true) {
          // Events live in memory of the replica that sent them: elsewhere, or once dropped by the cap, there is nothing to replay.
          return rpcError(res, 404, -32000, `Cannot resume: event ${lastEventId.slice(0, 32)} of this session is not held by this gateway replica (events are kept only by the replica that sent them, up to a per-session cap); retry the request (or use sticky routing for resumable streams).`);
        }
        if (typeof lastEventId === "string") sessions.markResumed(sessionId);
        if (req.method === "GET") sessions.holdWhileOpen(sessionId, res);
        return transport.handleRequest(req, res);
      }
      // A modern client never sends GET/DELETE; a 2025 one without a live session gets a clear error.
      return rpcError(res, sessionId === undefined ? 400 : 404, -32000, sessionId === undefined ? "Missing Mcp-Session-Id header." : "Unknown or expired session; initialize again.");
    }
    const text = await readBody(req);
    if (text === undefined) return rpcError(res, 413, -32000, `Request body larger than ${MAX_BODY_BYTES} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      return rpcError(res, 400, -32700, "Parse error: the body is not JSON.");
    }
    // A JSON-RPC batch is as many requests as it holds messages: the rate counts each (the POST took one already).
    if (Array.isArray(body) && body.length > 1 && client.rate !== undefined) {
      const batchWaitMs = body.length > client.rate.count ? Infinity : rates.take(identityOf(client), client.rate, body.length - 1);
      if (batchWaitMs > 0) {
        logger.warn({ client: client.name, messages: body.length }, "HTTP batch over the client's rate limit refused");
        return rateLimited(res, client.name, client.rate, batchWaitMs, body.length);
      }
    }
    if (!isLegacyPost(req, body)) {
      if (fastLane !== undefined && (await fastLane.serveModern(req, res, body, client))) return;
      const listen = passthrough === undefined ? undefined : listenedResources(body);
      if (listen !== undefined && passthrough !== undefined) {
        // Updates for these URIs come from upstream subscriptions, held while the stream is open.
        // Watched from before they are set up: a client that leaves meanwhile (an upstream slow to
        // start) would otherwise leave them held, its server kept running for good.
        let gone = false;
        const markGone = (): void => {
          gone = true;
        };
        res.once("close", markGone);
        let release: () => void;
        try {
          release = await passthrough.holdSubscriptions(listen.uris, {}, passthroughReach(client));
        } catch (error) {
          res.off("close", markGone);
          const code = ProtocolError.isInstance(error) ? error.code : -32603;
          return sendJson(res, 200, { jsonrpc: "2.0", id: listen.id, error: { code, message: errorMessage(error) } });
        }
        res.off("close", markGone);
        if (gone) return release();
        res.once("close", release);
      }
      return deps.modern(req, res, body);
    }
    if (sessionId !== undefined) {
      const transport = await sessions.own(sessionId, client, remote);
      if (transport === undefined) return rpcError(res, 404, -32001, "Unknown or expired session; initialize again.");
      if (fastLane !== undefined) {
        const server = sessions.server(transport);
        if (server !== undefined && (await fastLane.serveLegacy(req, res, body, client, { id: sessionId, server, wantsLogs: passthrough?.wantsLogs(server) ?? false }))) return;
        const cancelled = cancelledRequestId(body);
        if (cancelled !== undefined) fastLane.cancel(sessionId, cancelled);
      }
      cancelWhenClosed(res, body, transport, (since) => sessions.resumedSince(sessionId, since), RESUME_GRACE_MS);
      trackDelivery(res, body, sessions.events(transport));
      return transport.handleRequest(req, res, body);
    }
    if (!isInitializeRequest(body)) {
      // An initialize the schema refuses is the client's mistake to fix, not a missing one.
      const attempt = body as { method?: unknown; id?: unknown } | null;
      if (typeof attempt === "object" && attempt !== null && attempt.method === "initialize") {
        const id = typeof attempt.id === "string" || typeof attempt.id === "number" ? attempt.id : null;
        return sendJson(res, 400, {
          jsonrpc: "2.0",
          id,
          error: { code: -32602, message: "Invalid params for initialize: it needs protocolVersion (a string), capabilities (an object; each experimental entry an object) and clientInfo ({name, version}, strings), as the MCP spec's lifecycle says." },
        });
      }
      return rpcError(res, 400, -32000, "No session: send initialize first (or use the 2026-07-28 protocol).");
    }
    const transport = await sessions.begin(remote, client, body);
    trackDelivery(res, body, sessions.events(transport));
    return transport.handleRequest(req, res, body);
  };
}
