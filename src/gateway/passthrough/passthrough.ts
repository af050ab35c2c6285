import type { CompleteRequest, CompleteResult, LoggingLevel, Server } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { CallerOptions, ClientManager, ClientManagerEvent, ServerRequestContext } from "../../mcp/client-manager/index.js";
import { errorMessage } from "../../util/errors.js";
import { passthroughReach, reaches, type ClientScope, type ServerReach } from "../clients/scope.js";
import { invalidParams, toProtocolError } from "./errors.js";
import { forwardedLevel, mostVerbose, originTakesLog, passesLevel } from "./log-levels.js";
import { InputRounds } from "./input-rounds.js";
import { flushOrigin, notifyOrigin, type GatewayOrigin } from "./origin.js";
import { PromptRouter } from "./prompts.js";
import { fastLaneInvolved, originOf } from "./request-origin.js";
import { RootsRouter } from "./roots.js";
import { ResourceRouter } from "./resources.js";
import { upstreamRequestHooks } from "./upstream-requests.js";
import type { Upstreams } from "./upstreams.js";
import { releaseOnce, UpstreamSubscriptions } from "./upstream-subscriptions.js";

/** Sends one notification; a connection that is gone (throwing at once or later) never stops the others. */
function deliver(send: () => Promise<void>): void {
  try {
    void send().catch(() => undefined);
  } catch {
    // closed while we were iterating
  }
}

/** Per client connection (SDK server instance): what it subscribed to and the log level it asked for. */
interface SessionState {
  /** URI → its acquisition upstream (settled or not): a second subscribe of the URI waits for the first, never acquires again. */
  readonly subscriptions: Map<string, Promise<void>>;
  level: LoggingLevel | undefined;
  /** The servers whose log messages this connection may get (its client's reach, fixed per session). */
  reach: ServerReach;
}

/** Where notifications for 2026-07-28 clients go (the HTTP handler's subscriptions/listen bus). */
export interface ModernNotifier {
  resourcesChanged(): void;
  promptsChanged(): void;
  resourceUpdated(uri: string): void;
}

export interface PassthroughOptions {
  readonly upstreams: Upstreams;
  readonly clients: ClientManager;
  readonly logger: Logger;
  readonly redact: (text: string) => string;
  /** One server exposed under its own names (`mcpvm serve --expose`); prompts are flattened otherwise. */
  readonly exposed: string | undefined;
  /** The live client connections (2025 sessions, stdio). */
  readonly liveServers: () => Iterable<Server>;
}

/**
 * Everything of MCP besides tools, passed through from the upstream servers to the gateway's
 * clients: resources (URIs unchanged), templates, subscriptions and their updates, prompts,
 * completion, logging levels and log messages, list_changed, and the upstream's elicitation and
 * sampling requests, which go to the client whose call caused them.
 */
export class Passthrough {
  readonly resources: ResourceRouter;
  readonly prompts: PromptRouter;
  /** `input_required` rounds of 2026-07-28 clients' calls (elicitation, sampling and roots). */
  readonly rounds = new InputRounds();
  readonly roots: RootsRouter;
  private readonly sessions = new WeakMap<Server, SessionState>();
  private readonly upstreamSubscriptions: UpstreamSubscriptions;
  private readonly active = new Set<GatewayOrigin>();
  private readonly modernNotifiers = new Set<ModernNotifier>();
  private stopEvents: (() => void) | undefined;

  constructor(private readonly options: PassthroughOptions) {
    this.resources = new ResourceRouter(options.upstreams, options.logger, options.redact);
    this.prompts = new PromptRouter(options.upstreams, options.logger, options.redact, options.exposed === undefined);
    this.upstreamSubscriptions = new UpstreamSubscriptions(options.upstreams, this.resources, options.logger, options.redact);
    this.roots = new RootsRouter({
      liveServers: options.liveServers,
      reachOf: (server) => this.sessions.get(server)?.reach,
      connected: (name) => options.upstreams.connected(name),
      rounds: this.rounds,
      logger: options.logger,
      redact: options.redact,
    });
  }

  /** A new client connection and the client the transport authenticated (its reach scopes roots and log messages). */
  attach(server: Server, client: ClientScope | undefined): void {
    this.session(server).reach = passthroughReach(client);
  }

  /** Installs the elicitation/sampling/roots forwarding and starts forwarding upstream notifications. */
  start(): void {
    this.options.clients.setServerRequestHooks({
      ...upstreamRequestHooks({ originOf: (ctx) => this.originOf(ctx.origin, ctx.server), rounds: this.rounds, roots: this.roots, logger: this.options.logger }),
      // A 2026-07-28 upstream has no logging/setLevel (tellLevel): each request carries its client's level instead.
      logLevelOf: (origin) => forwardedLevel(origin, (gateway) => this.sessions.get(gateway.server)?.level),
    });
    this.stopEvents ??= this.options.clients.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.stopEvents?.();
    this.stopEvents = undefined;
    this.rounds.close();
  }

  addModernNotifier(notifier: ModernNotifier): () => void {
    this.modernNotifiers.add(notifier);
    return () => this.modernNotifiers.delete(notifier);
  }

  /** A gateway tools/call (or other request) is in flight for this client request. */
  async track<T>(origin: GatewayOrigin, work: () => Promise<T>): Promise<T> {
    this.active.add(origin);
    try {
      return await work();
    } finally {
      this.active.delete(origin);
      origin.ended.abort();
      await flushOrigin(origin);
    }
  }

  async subscribe(server: Server, uri: string, caller: CallerOptions, reach?: ServerReach): Promise<void> {
    const state = this.session(server);
    const pending = state.subscriptions.get(uri);
    if (pending !== undefined) return pending;
    // Recorded before the first await: the same URI subscribed twice at once is one holder, released by one unsubscribe.
    const acquiring = this.upstreamSubscriptions.acquire(uri, caller, reach);
    state.subscriptions.set(uri, acquiring);
    try {
      await acquiring;
    } catch (error) {
      if (state.subscriptions.get(uri) === acquiring) state.subscriptions.delete(uri);
      throw error;
    }
  }

  /**
   * A 2026-07-28 client's `subscriptions/listen` stream with `resourceSubscriptions`: the upstream
   * subscriptions its URIs need, held until the returned release runs (the stream closed). A URI no
   * server serves fails the whole listen with a clear error, holding nothing.
   */
  async holdSubscriptions(uris: readonly string[], caller: CallerOptions, reach?: ServerReach): Promise<() => void> {
    const held: string[] = [];
    try {
      for (const uri of new Set(uris)) {
        await this.upstreamSubscriptions.acquire(uri, caller, reach);
        held.push(uri);
      }
    } catch (error) {
      for (const uri of held) await this.upstreamSubscriptions.release(uri, {}).catch(() => undefined);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const uri of held) void this.upstreamSubscriptions.release(uri, {}).catch(() => undefined);
    };
  }

  async unsubscribe(server: Server, uri: string, caller: CallerOptions): Promise<void> {
    const state = this.session(server);
    const acquiring = state.subscriptions.get(uri);
    if (acquiring === undefined) return;
    state.subscriptions.delete(uri);
    await releaseOnce(acquiring, () => this.upstreamSubscriptions.release(uri, caller));
  }

  /** A client connection closed: its subscriptions are released upstream. */
  async dropSession(server: Server): Promise<void> {
    const state = this.sessions.get(server);
    if (state === undefined) return;
    this.sessions.delete(server);
    for (const [uri, acquiring] of state.subscriptions) await releaseOnce(acquiring, () => this.upstreamSubscriptions.release(uri, {})).catch(() => undefined);
  }

  /** Whether this client connection set a log level: its calls' upstream log messages are then related to them. */
  wantsLogs(server: Server): boolean {
    return this.sessions.get(server)?.level !== undefined;
  }

  /**
   * logging/setLevel: remembered for this client connection (with its reach); an upstream is told the
   * most verbose level set by the connections that reach it — those running now at once, the others
   * when they start (a level is no reason to start a server), and again after every reconnect (a
   * new process forgot it).
   */
  async setLevel(server: Server, level: LoggingLevel, caller: CallerOptions, reach?: ServerReach): Promise<void> {
    const state = this.session(server);
    state.level = level;
    state.reach = reach;
    const running = this.options.upstreams.names().filter((name) => reaches(reach, name) && this.options.upstreams.connected(name));
    await Promise.all(running.map((name) => this.tellLevel(name, caller)));
  }

  /** The most verbose level among the live connections whose client reaches `name`. */
  private levelFor(name: string): LoggingLevel | undefined {
    const levels: (LoggingLevel | undefined)[] = [];
    for (const live of this.options.liveServers()) {
      const state = this.sessions.get(live);
      if (state !== undefined && reaches(state.reach, name)) levels.push(state.level);
    }
    return mostVerbose(levels);
  }

  private async tellLevel(name: string, caller: CallerOptions): Promise<void> {
    const level = this.levelFor(name);
    if (level === undefined) return;
    await this.options.upstreams.request(name, "logging/setLevel", { level }, caller).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === "MCP_REQUEST_UNSUPPORTED") return;
      this.options.logger.debug({ server: name }, `logging/setLevel not applied: ${this.options.redact(errorMessage(error))}`);
    });
  }

  /** A server (re)connected: a new process knows nothing of the level or the subscriptions clients hold on it. */
  private onConnected(name: string): void {
    void this.tellLevel(name, {});
    this.upstreamSubscriptions.renew(name);
  }

  async complete(params: CompleteRequest["params"], caller: CallerOptions, reach?: ServerReach): Promise<CompleteResult> {
    if (params.ref.type === "ref/prompt") return this.prompts.complete(params, caller, reach);
    let owner = this.resources.ownerOfTemplate(params.ref.uri, reach);
    if (owner === undefined) {
      await this.resources.templatesList(caller, reach);
      owner = this.resources.ownerOfTemplate(params.ref.uri, reach) ?? this.resources.ownerOf(params.ref.uri, reach);
    }
    if (owner === undefined) throw invalidParams(`No server behind this gateway has the resource template ${params.ref.uri}.`);
    return this.options.upstreams.request(owner, "completion/complete", params, caller).catch((error: unknown) => {
      throw toProtocolError(error, this.options.redact);
    });
  }

  /** notifications/…/list_changed to every client: an upstream's list changed, or config.json added or removed servers. */
  listChanged(list: "resources" | "prompts"): void {
    for (const server of this.options.liveServers()) deliver(() => (list === "resources" ? server.sendResourceListChanged() : server.sendPromptListChanged()));
    for (const notifier of this.modernNotifiers) {
      if (list === "resources") notifier.resourcesChanged();
      else notifier.promptsChanged();
    }
  }

  private session(server: Server): SessionState {
    let state = this.sessions.get(server);
    if (state === undefined) {
      state = { subscriptions: new Map(), level: undefined, reach: undefined };
      this.sessions.set(server, state);
    }
    return state;
  }

  private passesThrough(server: string): boolean {
    return this.options.upstreams.names().includes(server);
  }

  private onEvent(event: ClientManagerEvent): void {
    if (!("server" in event) || !this.passesThrough(event.server)) return;
    switch (event.type) {
      case "state":
        if (event.state === "connected") this.onConnected(event.server);
        return;
      case "listChanged":
        this.listChanged(event.list);
        return;
      case "resourceUpdated":
        for (const server of this.options.liveServers()) {
          if (this.sessions.get(server)?.subscriptions.has(event.uri) === true) deliver(() => server.sendResourceUpdated({ uri: event.uri }));
        }
        for (const notifier of this.modernNotifiers) notifier.resourceUpdated(event.uri);
        return;
      case "log":
        this.forwardLog(event);
        return;
      case "notificationsDropped":
        this.options.logger.warn({ server: event.server, kind: event.kind, count: event.count }, `MCP server ${event.server} sent too many ${event.kind} notifications; ${event.count} dropped`);
        return;
      default:
        return;
    }
  }

  /**
   * A log message of an upstream: to the client whose call is in flight on that server, related to
   * its request (so it arrives on that request's stream), else to every connection that set a level.
   */
  private forwardLog(event: Extract<ClientManagerEvent, { type: "log" }>): void {
    const logger = event.logger === undefined ? event.server : `${event.server}/${event.logger}`;
    const params = { level: event.level, logger, data: event.data };
    // A fast-lane call's answer is one JSON body: its upstream's messages have nowhere to go, and belong to no other client.
    if (fastLaneInvolved(event.origin)) return;
    const origin = this.originOf(event.origin, event.server);
    if (origin !== undefined) {
      if (!originTakesLog(origin, event.level, this.sessions.get(origin.server)?.level)) return;
      notifyOrigin(origin, { method: "notifications/message", params });
      return;
    }
    for (const server of this.options.liveServers()) {
      const state = this.sessions.get(server);
      if (state?.level === undefined || !passesLevel(event.level, state.level) || !reaches(state.reach, event.server)) continue;
      deliver(() => server.notification({ method: "notifications/message", params }));
    }
  }

  /** The client request an upstream's request or message belongs to (request-origin.ts), given the gateway calls in flight. */
  private originOf(resolved: ServerRequestContext["origin"] | undefined, server: string): GatewayOrigin | undefined {
    return originOf(resolved, server, this.active);
  }
}
