import type { ServerResponse } from "node:http";
import type { Logger } from "pino";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { errorMessage } from "../util/errors.js";
import type { RequestAuthenticator } from "./clients/authenticate.js";
import { identityOf, type ClientScope } from "./clients/scope.js";
import { SessionEventStore } from "./event-store.js";
import { EndedSessions } from "./http-util.js";
import { RevokedSessions } from "./revoked-sessions.js";
import type { GatewayServers } from "./server-factory.js";
import { initializeClaims, signSessionId, verifySessionId } from "./session-id.js";
import { SessionPool, type SessionLimits } from "./session-pool.js";

/** Clients reconnect this soon after a drop (the SDK client's default backoff starts at 1 s). */
const RESUME_RETRY_MS = 300;

export const DEFAULT_SESSION_LIMITS: SessionLimits = { perClient: 100, total: 1_000, idleMs: 30 * 60_000 };

export interface LegacySessionsOptions {
  readonly servers: GatewayServers;
  readonly authenticator: RequestAuthenticator;
  readonly logger: Logger;
  readonly limits: SessionLimits;
  /** Signs session ids so that any replica sharing it can rebuild a session it never saw (session-id.ts). */
  readonly sessionKey: Buffer;
}

/**
 * The HTTP gateway's 2025-era sessions: a sessionful transport and SDK server instance per client
 * (Mcp-Session-Id), owned by the client that opened it, capped and expired (session-pool.ts), ended
 * when its client token is revoked, with an event store per session for resumable streams, and
 * rebuilt from its signed id when another replica (or this one before a restart) began it.
 */
export class LegacySessions {
  private readonly pool: SessionPool<NodeStreamableHTTPServerTransport>;
  // The client that opened each session (identityOf: name and how it was proven): another client's token cannot use it.
  private readonly owners = new Map<string, string>();
  // Sessions this replica closed (idle, evicted, DELETE): their signed ids are not rebuilt here.
  private readonly ended: EndedSessions;
  // Sessions opened with a named client token: revoking it ends them, open notification streams included.
  private readonly credentials: RevokedSessions;
  // The SDK server instance behind each session's transport: the fast lane reads what its client declared.
  private readonly servers = new WeakMap<NodeStreamableHTTPServerTransport, Server>();
  private readonly stores = new WeakMap<NodeStreamableHTTPServerTransport, SessionEventStore>();
  // When each session's client last resumed a stream (Last-Event-ID): a closed request it resumes is not cancelled.
  private readonly resumedAt = new Map<string, number>();
  private readonly rebuilding = new Map<string, Promise<NodeStreamableHTTPServerTransport>>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly options: LegacySessionsOptions) {
    const { logger, limits } = options;
    this.ended = new EndedSessions(Math.max(10_000, limits.total * 10));
    this.pool = new SessionPool<NodeStreamableHTTPServerTransport>(limits, (id, transport, why) => {
      logger.info({ session: id }, why === "idle" ? "client session closed: idle" : "client session closed: too many sessions, least recently used");
      this.ended.add(id);
      void transport.close().catch(() => undefined);
    });
    this.sweep = setInterval(() => this.pool.expireIdle(), Math.max(50, Math.min(limits.idleMs / 2, 60_000)));
    this.sweep.unref();
    this.credentials = new RevokedSessions(options.authenticator, logger, (id) => {
      const transport = this.pool.use(id);
      this.pool.delete(id);
      this.owners.delete(id);
      this.ended.add(id);
      void transport?.close().catch(() => undefined);
    });
  }

  get size(): number {
    return this.pool.size;
  }

  /** A new session for an initialize request, its id signed with what the client declared. */
  begin(remote: string, client: ClientScope, initialize: unknown): Promise<NodeStreamableHTTPServerTransport> {
    const { protocolVersion, declared } = initializeClaims(initialize);
    return this.open(remote, client, () => signSessionId(this.options.sessionKey, { client: identityOf(client), protocolVersion, issuedAt: Date.now(), declared }));
  }

  /** The session `id` of `client` (rebuilt here when signed and not ended); to any other client it does not exist. */
  async own(id: string, client: ClientScope, remote: string): Promise<NodeStreamableHTTPServerTransport | undefined> {
    if (this.owners.has(id)) return this.owners.get(id) === identityOf(client) ? this.pool.use(id) : undefined;
    return this.rebuild(id, client, remote)?.catch((error: unknown) => {
      this.options.logger.warn({ client: client.name }, `a signed session could not be rebuilt: ${errorMessage(error)}`);
      return undefined;
    });
  }

  events(transport: NodeStreamableHTTPServerTransport): SessionEventStore | undefined {
    return this.stores.get(transport);
  }

  server(transport: NodeStreamableHTTPServerTransport): Server | undefined {
    return this.servers.get(transport);
  }

  markResumed(id: string): void {
    this.resumedAt.set(id, Date.now());
  }

  /** Whether the session's client resumed a stream at or after `since`. */
  resumedSince(id: string, since: number): boolean {
    return (this.resumedAt.get(id) ?? 0) >= since;
  }

  /** An open notification stream keeps the session from expiring while it lasts. */
  holdWhileOpen(id: string, res: ServerResponse): void {
    this.pool.streamOpened(id);
    res.once("close", () => this.pool.streamClosed(id));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweep);
    this.credentials.stop();
    await Promise.all(this.pool.values().map((t) => t.close().catch(() => undefined)));
    this.pool.clear();
    this.owners.clear();
  }

  private async open(remote: string, owner: ClientScope, sessionId: () => string): Promise<NodeStreamableHTTPServerTransport> {
    const { logger } = this.options;
    const events = new SessionEventStore();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: sessionId,
      // SSE event ids: a client whose connection drops mid-call resumes with Last-Event-ID (event-store.ts).
      eventStore: events,
      retryInterval: RESUME_RETRY_MS,
      // Responses are SSE streams: an upstream's progress, log messages, elicitation and sampling
      // requests travel to the client on the stream of the request that caused them.
      onsessioninitialized: (id) => {
        // Capped per client and address: behind a balancer every client shares one address, and one token must not evict another's sessions.
        this.pool.add(id, `${identityOf(owner)} ${remote}`, transport);
        this.owners.set(id, identityOf(owner));
        if (owner.credential !== undefined) this.credentials.track(id, owner.credential);
        logger.info({ session: id, client: owner.name }, "client session opened");
      },
      onsessionclosed: (id) => {
        this.ended.add(id);
        this.pool.delete(id);
        this.owners.delete(id);
        this.credentials.forget(id);
        logger.info({ session: id }, "client session closed");
      },
    });
    this.stores.set(transport, events);
    transport.onclose = () => {
      events.clear();
      if (transport.sessionId !== undefined) {
        this.resumedAt.delete(transport.sessionId);
        this.pool.delete(transport.sessionId);
        this.owners.delete(transport.sessionId);
        this.credentials.forget(transport.sessionId);
      }
    };
    const server = this.options.servers.create("http-session", { track: true, client: owner });
    this.servers.set(transport, server);
    await server.connect(transport);
    return transport;
  }

  /**
   * A session another replica began (or this one before a restart): its signed id says whose it is
   * and which protocol version it speaks, so a server instance is built for it and initialized
   * in-process with the protocol version, capabilities and clientInfo of the client's initialize
   * (carried in the id); the client never notices the move.
   */
  private rebuild(id: string, client: ClientScope, remote: string): Promise<NodeStreamableHTTPServerTransport> | undefined {
    const claims = this.ended.has(id) ? undefined : verifySessionId(this.options.sessionKey, id);
    if (claims === undefined || claims.client !== identityOf(client)) return undefined;
    let pending = this.rebuilding.get(id);
    if (pending === undefined) {
      pending = (async () => {
        const transport = await this.open(remote, client, () => id);
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
        this.options.logger.info({ session: id, client: client.name }, "client session rebuilt on this replica");
        return transport;
      })().finally(() => this.rebuilding.delete(id));
      this.rebuilding.set(id, pending);
    }
    return pending;
  }
}
