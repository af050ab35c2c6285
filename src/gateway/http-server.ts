import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import {
  hostHeaderValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest, ProtocolError, type McpHttpHandler, type Server, type WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { telemetry } from "../telemetry/telemetry.js";
import { errorMessage } from "../util/errors.js";
import { isLoopback, type ListenAddress } from "./address.js";
import { isRefusal, tokenAuthenticator, type RequestAuthenticator } from "./clients/authenticate.js";
import { ClientRateLimiter } from "./clients/rate-limiter.js";
import { isScoped, passthroughReach, type ClientScope } from "./clients/scope.js";
import { RevokedSessions } from "./revoked-sessions.js";
import type { Gateway } from "./gateway.js";
import { ReadinessProbe } from "./probes.js";
import { serveProbe, type ProbeState } from "./http-probes.js";
import type { GatewayServers } from "./server-factory.js";
import { cancelWhenClosed } from "./session-close.js";
import { initializeClaims, signSessionId, verifySessionId } from "./session-id.js";
import { listenedResources } from "./passthrough/listen.js";
import type { Passthrough } from "./passthrough/passthrough.js";
import { SessionPool, type SessionLimits } from "./session-pool.js";
import { SessionEventStore, trackDelivery } from "./event-store.js";
import { FastLane } from "./fast-lane/fast-lane.js";
import { cancelledRequestId } from "./fast-lane/recognize.js";
import { allowedHostnames, EndedSessions, isLegacyPost, MAX_BODY_BYTES, rateLimited, readBody, rpcError, sendJson, serveMetrics } from "./http-util.js";

export { MAX_BODY_BYTES } from "./http-util.js";

export interface HttpGatewayOptions {
  readonly gateway: Gateway;
  readonly servers: GatewayServers;
  /** Receives the modern handler's notifier (resources/prompts list_changed, resource updates for 2026 clients). */
  readonly passthrough?: Passthrough;
  readonly address: ListenAddress;
  readonly token: string | undefined;
  /** Who a request comes from (named client tokens); by default only `token` is accepted. */
  readonly authenticator?: RequestAuthenticator;
  readonly logger: Logger;
  /**
   * Signs 2025-era session ids so that any replica sharing it can rebuild a session it never saw
   * (see session-id.ts); a key of this process only when absent.
   */
  readonly sessionKey?: Buffer;
  /** Caps and idle expiry of 2025-era sessions (config.json gateway.sessions*); defaults: 100 per client, 1000 in all, 30 min idle. */
  readonly sessionLimits?: Partial<SessionLimits>;
  /** Plain direct-tool calls answered without the SDK server (fast-lane/); default on (config gateway.fastLane, MCPVM_GATEWAY_FAST_LANE). */
  readonly fastLane?: boolean;
}

/** How long a 2025 request whose stream closed waits for its client to resume (Last-Event-ID) before it is cancelled. */
const RESUME_GRACE_MS = 3_000;
const RESUME_RETRY_MS = 300;

export const DEFAULT_SESSION_LIMITS: SessionLimits = { perClient: 100, total: 1_000, idleMs: 30 * 60_000 };

export interface HttpGateway {
  readonly url: string;
  /** Legacy (2025-era) sessions open now. */
  sessionCount(): number;
  /**
   * Stops accepting (new connections refused, new requests 503), lets POSTs in flight finish for up
   * to `drainMs`, then closes every session and connection.
   */
  close(options?: { readonly drainMs?: number }): Promise<void>;
}

/**
 * Streamable HTTP at /mcp and GET /health. 2026-07-28 (modern) requests go to the SDK's
 * per-request handler, whose `subscriptions/listen` streams carry list_changed; 2025-era clients
 * get a sessionful transport per client (Mcp-Session-Id), so each has its own server instance
 * and notification stream. Bound to loopback by default, with Host/Origin checks against DNS
 * rebinding; a bearer token, when set, is required on every /mcp and /metrics request.
 */
export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const { gateway, servers, address, token, logger } = options;
  const authenticator = options.authenticator ?? tokenAuthenticator({ token });
  const rates = new ClientRateLimiter();
  // The client that opened each 2025-era session: another client's token cannot use it.
  const owners = new Map<string, string>();
  const loopback = isLoopback(address.host);
  const validateHost = loopback ? hostHeaderValidation(allowedHostnames(address)) : undefined;
  const validateOrigin = loopback ? localhostOriginValidation() : undefined;
  const limits: SessionLimits = { ...DEFAULT_SESSION_LIMITS, ...options.sessionLimits };
  // Sessions this replica closed (idle, evicted, DELETE): their signed ids are not rebuilt here.
  const ended = new EndedSessions(Math.max(10_000, limits.total * 10));
  const sessions = new SessionPool<NodeStreamableHTTPServerTransport>(limits, (id, transport, why) => {
    logger.info({ session: id }, why === "idle" ? "client session closed: idle" : "client session closed: too many sessions, least recently used");
    ended.add(id);
    void transport.close().catch(() => undefined);
  });
  const sweep = setInterval(() => sessions.expireIdle(), Math.max(50, Math.min(limits.idleMs / 2, 60_000)));
  sweep.unref();
  // Sessions opened with a named client token: revoking it ends them, open notification streams included.
  const credentials = new RevokedSessions(authenticator, logger, (id) => {
    const transport = sessions.use(id);
    sessions.delete(id);
    owners.delete(id);
    ended.add(id);
    void transport?.close().catch(() => undefined);
  });
  const modern: McpHttpHandler = createMcpHandler(servers.factory(() => "http", { track: false }), {
    legacy: "reject",
    onerror: (error) => logger.debug({}, `modern MCP request: ${error.message}`),
  });
  const modernNode = toNodeHandler(modern, { onerror: (error) => logger.warn({}, `modern MCP request failed: ${error.message}`), maxRequestBodySize: MAX_BODY_BYTES });
  const unsubscribeTools = gateway.onToolsChanged(() => modern.notify.toolsChanged());
  const unsubscribeModern = options.passthrough?.addModernNotifier(modern.notify);
  const unsubscribe = (): void => {
    unsubscribeTools();
    unsubscribeModern?.();
  };
  const started = Date.now();
  const readiness = new ReadinessProbe(gateway.directory, { ttlMs: 2_000, timeoutMs: 15_000 });
  let draining = false;
  let inFlight = 0;
  const drained = new Set<() => void>();
  const trackInFlight = (res: ServerResponse): void => {
    inFlight++;
    res.once("close", () => {
      inFlight--;
      if (inFlight === 0) for (const resolve of drained) resolve();
    });
  };

  const fastLane = options.fastLane === false ? undefined : new FastLane(gateway, logger);
  // The SDK server instance behind each 2025 session's transport: the fast lane reads what its client declared.
  const sessionServers = new WeakMap<NodeStreamableHTTPServerTransport, Server>();
  const sessionKey = options.sessionKey ?? randomBytes(32);
  const rebuilding = new Map<string, Promise<NodeStreamableHTTPServerTransport>>();
  const sessionEvents = new WeakMap<NodeStreamableHTTPServerTransport, SessionEventStore>();
  // When each session's client last resumed a stream (Last-Event-ID): a closed request it resumes is not cancelled.
  const resumedAt = new Map<string, number>();

  const openSession = async (remote: string, owner: ClientScope, sessionId: () => string): Promise<NodeStreamableHTTPServerTransport> => {
    const events = new SessionEventStore();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: sessionId,
      // SSE event ids: a client whose connection drops mid-call resumes with Last-Event-ID (event-store.ts).
      eventStore: events,
      // Clients reconnect this soon after a drop (the SDK client's default backoff starts at 1 s).
      retryInterval: RESUME_RETRY_MS,
      // Responses are SSE streams: an upstream's progress, log messages, elicitation and sampling
      // requests travel to the client on the stream of the request that caused them.
      onsessioninitialized: (id) => {
        // Capped per client and address: behind a balancer every client shares one address, and one token must not evict another's sessions.
        sessions.add(id, `${owner.name} ${remote}`, transport);
        owners.set(id, owner.name);
        if (owner.credential !== undefined) credentials.track(id, owner.credential);
        logger.info({ session: id, client: owner.name }, "client session opened");
      },
      onsessionclosed: (id) => {
        ended.add(id);
        sessions.delete(id);
        owners.delete(id);
        credentials.forget(id);
        logger.info({ session: id }, "client session closed");
      },
    });
    sessionEvents.set(transport, events);
    transport.onclose = () => {
      events.clear();
      if (transport.sessionId !== undefined) {
        resumedAt.delete(transport.sessionId);
        sessions.delete(transport.sessionId);
        owners.delete(transport.sessionId);
        credentials.forget(transport.sessionId);
      }
    };
    const server = servers.create("http-session", { track: true, client: owner });
    sessionServers.set(transport, server);
    await server.connect(transport);
    return transport;
  };

  /**
   * A session another replica began (or this one before a restart): its signed id says whose it is
   * and which protocol version it speaks, so a server instance is built for it and initialized
   * in-process with the protocol version, capabilities and clientInfo of the client's initialize
   * (carried in the id); the client never notices the move.
   */
  const rebuildSession = (id: string, client: ClientScope, remote: string): Promise<NodeStreamableHTTPServerTransport> | undefined => {
    const claims = ended.has(id) ? undefined : verifySessionId(sessionKey, id);
    if (claims === undefined || claims.client !== client.name) return undefined;
    let pending = rebuilding.get(id);
    if (pending === undefined) {
      pending = (async () => {
        const transport = await openSession(remote, client, () => id);
        // The SDK has no public way to restore a session; its web-standard transport is driven directly.
        const web = (transport as unknown as { _webStandardTransport: WebStandardStreamableHTTPServerTransport })._webStandardTransport;
        // What the client declared when it began (ids from before these were kept: nothing), so roots, sampling and elicitation survive the move.
        const declared = claims.declared ?? { capabilities: {}, clientInfo: { name: "mcpvm-rebuilt-session", version: "0" } };
        const initialize = { jsonrpc: "2.0", id: "mcpvm-rebuild", method: "initialize", params: { protocolVersion: claims.protocolVersion, ...declared } };
        const response = await web.handleRequest(
          new Request("http://gateway/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(initialize) }),
        );
        await response.text();
        if (!response.ok || transport.sessionId !== id) throw new Error(`session ${id.slice(0, 12)}… could not be rebuilt (HTTP ${response.status})`);
        logger.info({ session: id, client: client.name }, "client session rebuilt on this replica");
        return transport;
      })().finally(() => rebuilding.delete(id));
      rebuilding.set(id, pending);
    }
    return pending;
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse, client: ClientScope): Promise<void> => {
    const sessionHeader = req.headers["mcp-session-id"];
    const sessionId = typeof sessionHeader === "string" ? sessionHeader : undefined;
    // A session belongs to the client that opened it: to any other it does not exist.
    const ownSession = async (id: string): Promise<NodeStreamableHTTPServerTransport | undefined> => {
      if (owners.has(id)) return owners.get(id) === client.name ? sessions.use(id) : undefined;
      return rebuildSession(id, client, req.socket.remoteAddress ?? "unknown")?.catch((error: unknown) => {
        logger.warn({ client: client.name }, `a signed session could not be rebuilt: ${errorMessage(error)}`);
        return undefined;
      });
    };
    if (req.method !== "POST") {
      const transport = sessionId === undefined ? undefined : await ownSession(sessionId);
      if (transport !== undefined && sessionId !== undefined) {
        // An open notification stream keeps the session from expiring while it lasts.
        const lastEventId = req.headers["last-event-id"];
        if (req.method === "GET" && typeof lastEventId === "string" && sessionEvents.get(transport)?.knows(lastEventId) !== true) {
          // Events live in memory of the replica that sent them: elsewhere, or once dropped by the cap, there is nothing to replay.
          return rpcError(res, 404, -32000, `Cannot resume: event ${lastEventId.slice(0, 32)} of this session is not held by this gateway replica (events are kept only by the replica that sent them, up to a per-session cap); retry the request (or use sticky routing for resumable streams).`);
        }
        if (typeof lastEventId === "string") resumedAt.set(sessionId, Date.now());
        if (req.method === "GET") {
          sessions.streamOpened(sessionId);
          res.once("close", () => sessions.streamClosed(sessionId));
        }
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
      const batchWaitMs = body.length > client.rate.count ? Infinity : rates.take(client.name, client.rate, body.length - 1);
      if (batchWaitMs > 0) {
        logger.warn({ client: client.name, messages: body.length }, "HTTP batch over the client's rate limit refused");
        return rateLimited(res, client.name, client.rate, batchWaitMs, body.length);
      }
    }
    if (!isLegacyPost(req, body)) {
      if (fastLane !== undefined && (await fastLane.serveModern(req, res, body, client))) return;
      const listen = options.passthrough === undefined ? undefined : listenedResources(body);
      if (listen !== undefined && options.passthrough !== undefined) {
        // Updates for these URIs come from upstream subscriptions, held while the stream is open.
        let release: () => void;
        try {
          release = await options.passthrough.holdSubscriptions(listen.uris, {}, passthroughReach(client));
        } catch (error) {
          const code = ProtocolError.isInstance(error) ? error.code : -32603;
          return sendJson(res, 200, { jsonrpc: "2.0", id: listen.id, error: { code, message: errorMessage(error) } });
        }
        res.once("close", release);
      }
      return modernNode(req, res, body);
    }
    if (sessionId !== undefined) {
      const transport = await ownSession(sessionId);
      if (transport === undefined) return rpcError(res, 404, -32001, "Unknown or expired session; initialize again.");
      if (fastLane !== undefined) {
        const server = sessionServers.get(transport);
        if (server !== undefined && (await fastLane.serveLegacy(req, res, body, client, { id: sessionId, server, wantsLogs: options.passthrough?.wantsLogs(server) ?? false }))) return;
        const cancelled = cancelledRequestId(body);
        if (cancelled !== undefined) fastLane.cancel(sessionId, cancelled);
      }
      cancelWhenClosed(res, body, transport, (since) => (resumedAt.get(sessionId) ?? 0) >= since, RESUME_GRACE_MS);
      trackDelivery(res, body, sessionEvents.get(transport));
      return transport.handleRequest(req, res, body);
    }
    if (!isInitializeRequest(body)) return rpcError(res, 400, -32000, "No session: send initialize first (or use the 2026-07-28 protocol).");
    const { protocolVersion, declared } = initializeClaims(body);
    const transport = await openSession(req.socket.remoteAddress ?? "unknown", client, () => signSessionId(sessionKey, { client: client.name, protocolVersion, issuedAt: Date.now(), declared }));
    trackDelivery(res, body, sessionEvents.get(transport));
    return transport.handleRequest(req, res, body);
  };

  const probeState: ProbeState = {
    gateway,
    authenticator,
    readiness,
    started,
    draining: () => draining,
    sessions: () => sessions.size,
    fastLane: () => ({ on: fastLane !== undefined, calls: fastLane?.served ?? 0 }),
  };

  const httpServer = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://gateway").pathname;
    void (async () => {
      // Host/Origin first, for /health too: a DNS-rebinding page must not read server names or states.
      if (validateHost !== undefined && !validateHost(req, res)) return;
      if (validateOrigin !== undefined && !validateOrigin(req, res)) return;
      if (await serveProbe(path, req, res, probeState)) return;
      // RFC 9728 protected resource metadata (OAuth mode): public, so a client can find where to log in.
      const document = req.method === "GET" ? authenticator.publicDocument?.(path) : undefined;
      // Readable from browser-based clients too: the document is public by design.
      if (document !== undefined) return sendJson(res, 200, document, { "cache-control": "max-age=300", "access-control-allow-origin": "*" });
      const metrics = path === "/metrics" && req.method === "GET";
      if (path !== "/mcp" && !metrics) return sendJson(res, 404, { error: "not found; the MCP endpoint is /mcp" });
      if (draining) return rpcError(res, 503, -32000, "The gateway is shutting down; retry (another replica will answer).", { connection: "close", "retry-after": "1" });
      if (req.method === "POST" && !metrics) trackInFlight(res);
      const client = await authenticator.authenticate(req);
      if (isRefusal(client)) {
        logger.warn({ remote: req.socket.remoteAddress, status: client.status, reason: client.description }, "HTTP request without a valid bearer token refused");
        const what = client.status === 400 ? "Bad request" : client.status === 403 ? "Forbidden" : client.status === 503 ? "Unavailable" : "Unauthorized";
        const headers: Record<string, string> = client.status === 503 ? { "retry-after": "5" } : { "www-authenticate": authenticator.challenge(client) };
        return rpcError(res, client.status, -32001, `${what}: ${client.description}; ${authenticator.hint}.`, headers);
      }
      const waitMs = client.rate === undefined ? 0 : rates.take(client.name, client.rate);
      if (waitMs > 0 && client.rate !== undefined) {
        logger.warn({ client: client.name }, "HTTP request over the client's rate limit refused");
        return rateLimited(res, client.name, client.rate, waitMs, 1);
      }
      // The SDK hands req.auth to request handlers as authInfo; the token itself is not carried.
      (req as IncomingMessage & { auth?: unknown }).auth = { token: "", clientId: client.name, scopes: [], extra: { client } };
      // Metrics name every client, server and tool: a token limited to some of them does not read them.
      if (metrics && isScoped(client)) return rpcError(res, 403, -32001, `Forbidden: /metrics covers every client and server of this gateway, and client "${client.name}" is limited to some; scrape with the gateway token.`);
      if (metrics) return serveMetrics(req, res);
      // One span per request (not for GET: a notification stream lasts as long as the session).
      if (req.method === "GET") return handleMcp(req, res, client);
      await telemetry().httpRequest({ method: req.method ?? "POST", route: "/mcp", headers: req.headers }, res, () => handleMcp(req, res, client));
    })().catch((error: unknown) => {
      logger.error({ path }, `HTTP request failed: ${errorMessage(error)}`);
      if (!res.headersSent) rpcError(res, 500, -32603, "Internal gateway error; see the gateway log.");
      else res.end();
    });
  });

  // Slow clients (slowloris) cannot hold sockets: headers within 10 s, the whole request body within 30 s.
  httpServer.headersTimeout = 10_000;
  httpServer.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(address.port, address.host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const bound = httpServer.address() as AddressInfo;
  const host = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  const url = `http://${host}:${bound.port}/mcp`;
  authenticator.listening?.(url);

  return {
    url,
    sessionCount: () => sessions.size,
    close: async (closeOptions = {}) => {
      draining = true;
      // No new connections; idle keep-alive ones go now, busy ones after their response.
      httpServer.close();
      httpServer.closeIdleConnections();
      const drainMs = closeOptions.drainMs ?? 0;
      if (inFlight > 0 && drainMs > 0) {
        logger.info({ inFlight, drainMs }, "draining: waiting for calls in flight");
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainMs);
          drained.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (inFlight > 0) logger.warn({ inFlight }, "drain deadline reached; closing calls still in flight");
      }
      clearInterval(sweep);
      credentials.stop();
      unsubscribe();
      await modern.close().catch(() => undefined);
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      sessions.clear();
      owners.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => (httpServer.listening ? httpServer.close(() => resolve()) : resolve()));
    },
  };
}
