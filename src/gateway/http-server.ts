import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { hostHeaderValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type McpHttpHandler } from "@modelcontextprotocol/server";
import { telemetry } from "../telemetry/telemetry.js";
import { errorMessage } from "../util/errors.js";
import { isLoopback, type ListenAddress } from "./address.js";
import { isRefusal, tokenAuthenticator, type RequestAuthenticator } from "./clients/authenticate.js";
import { ClientRateLimiter } from "./clients/rate-limiter.js";
import { identityOf, isScoped } from "./clients/scope.js";
import type { Gateway } from "./gateway.js";
import { ReadinessProbe } from "./probes.js";
import { serveProbe, type ProbeState } from "./http-probes.js";
import type { GatewayServers } from "./server-factory.js";
import type { Passthrough } from "./passthrough/passthrough.js";
import type { SessionLimits } from "./session-pool.js";
import { DEFAULT_SESSION_LIMITS, LegacySessions } from "./legacy-sessions.js";
import { mcpEndpoint } from "./mcp-endpoint.js";
import { RevokedSessions } from "./revoked-sessions.js";
import { closeWhenExpired } from "./oauth/expiry-close.js";
import { FastLane } from "./fast-lane/fast-lane.js";
import { ALLOWED_METHODS, allowedHostnames, MAX_BODY_BYTES, methodNotAllowed, rateLimited, rpcError, sendJson, serveMetrics } from "./http-util.js";

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
 * and notification stream (legacy-sessions.ts; the /mcp routing is mcp-endpoint.ts). Bound to loopback by default, with Host/Origin checks against DNS
 * rebinding; a bearer token, when set, is required on every /mcp and /metrics request.
 */
export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const { gateway, servers, address, token, logger } = options;
  const authenticator = options.authenticator ?? tokenAuthenticator({ token });
  const rates = new ClientRateLimiter();
  const loopback = isLoopback(address.host);
  const validateHost = loopback ? hostHeaderValidation(allowedHostnames(address)) : undefined;
  const validateOrigin = loopback ? localhostOriginValidation() : undefined;
  const sessions = new LegacySessions({
    servers,
    authenticator,
    logger,
    limits: { ...DEFAULT_SESSION_LIMITS, ...options.sessionLimits },
    sessionKey: options.sessionKey ?? randomBytes(32),
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

  // Every open response of a named client token (a 2026-07-28 subscriptions/listen stream, a long call's
  // progress stream, any POST still answering): revoking the token ends them within a second. Only new
  // requests are authenticated, so without this an open stream kept delivering after the revocation.
  const openResponses = new Map<string, ServerResponse>();
  let responseCount = 0;
  const revokedResponses = new RevokedSessions(authenticator, logger, (id) => {
    const res = openResponses.get(id);
    openResponses.delete(id);
    res?.destroy();
  }, 1_000, { key: "response", noun: "client response" });
  const closeWhenRevoked = (res: ServerResponse, credential: string | undefined): void => {
    if (credential === undefined) return;
    const id = String(++responseCount);
    openResponses.set(id, res);
    revokedResponses.track(id, credential);
    res.once("close", () => {
      openResponses.delete(id);
      revokedResponses.forget(id);
    });
  };

  const fastLane = options.fastLane === false ? undefined : new FastLane(gateway, logger);
  const handleMcp = mcpEndpoint({ sessions, modern: modernNode, fastLane, passthrough: options.passthrough, rates, logger });

  const probeState: ProbeState = {
    gateway,
    authenticator,
    readiness,
    started,
    rates,
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
      const allow = ALLOWED_METHODS[path];
      if (allow !== undefined && !allow.split(", ").includes(req.method ?? "")) return methodNotAllowed(res, path, allow);
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
      const waitMs = client.rate === undefined ? 0 : rates.take(identityOf(client), client.rate);
      if (waitMs > 0 && client.rate !== undefined) {
        logger.warn({ client: client.name }, "HTTP request over the client's rate limit refused");
        return rateLimited(res, client.name, client.rate, waitMs, 1);
      }
      closeWhenRevoked(res, client.credential);
      if (client.acceptedUntil !== undefined) {
        closeWhenExpired(res, client.acceptedUntil, () => logger.info({ client: client.name }, "client response closed: its access token expired"));
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
      unsubscribe();
      revokedResponses.stop();
      await modern.close().catch(() => undefined);
      await sessions.closeAll();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => (httpServer.listening ? httpServer.close(() => resolve()) : resolve()));
    },
  };
}
