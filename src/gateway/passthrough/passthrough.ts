import {
  ProtocolError,
  ProtocolErrorCode,
  type CompleteRequest,
  type CompleteResult,
  type LoggingLevel,
  type Server,
} from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { CallerOptions, ClientManager, ClientManagerEvent, ServerRequestContext, ServerRequestHooks } from "../../mcp/client-manager/index.js";
import { errorMessage } from "../../util/errors.js";
import { passthroughReach, reaches, type ClientScope, type ServerReach } from "../clients/scope.js";
import { invalidParams, toProtocolError } from "./errors.js";
import { mostVerbose, originTakesLog, passesLevel } from "./log-levels.js";
import { InputRounds } from "./input-rounds.js";
import { clientCapabilities, flushOrigin, isFastLaneOrigin, isGatewayOrigin, isModernRequest, notifyOrigin, type GatewayOrigin } from "./origin.js";
import { PromptRouter } from "./prompts.js";
import { RootsRouter } from "./roots.js";
import { ResourceRouter } from "./resources.js";
import type { Upstreams } from "./upstreams.js";
import { UpstreamSubscriptions } from "./upstream-subscriptions.js";

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
  readonly subscriptions: Set<string>;
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
    this.options.clients.setServerRequestHooks(this.serverRequestHooks());
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
      await flushOrigin(origin);
    }
  }

  async subscribe(server: Server, uri: string, caller: CallerOptions, reach?: ServerReach): Promise<void> {
    const state = this.session(server);
    if (state.subscriptions.has(uri)) return;
    await this.upstreamSubscriptions.acquire(uri, caller, reach);
    state.subscriptions.add(uri);
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
    if (!state.subscriptions.delete(uri)) return;
    await this.upstreamSubscriptions.release(uri, caller);
  }

  /** A client connection closed: its subscriptions are released upstream. */
  async dropSession(server: Server): Promise<void> {
    const state = this.sessions.get(server);
    if (state === undefined) return;
    this.sessions.delete(server);
    for (const uri of state.subscriptions) await this.upstreamSubscriptions.release(uri, {}).catch(() => undefined);
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
      state = { subscriptions: new Set(), level: undefined, reach: undefined };
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

  /** The client request an upstream's request or message belongs to: as resolved by the manager, else the only gateway call in flight. */
  private originOf(resolved: ServerRequestContext["origin"] | undefined, server: string): GatewayOrigin | undefined {
    // A fast-lane call in flight on that server makes the guess below unsafe: the request may be its.
    if (fastLaneInvolved(resolved)) return undefined;
    if (resolved !== undefined && isGatewayOrigin(resolved.origin)) return resolved.origin;
    const fromInFlight = resolved?.inFlight.filter(isGatewayOrigin) ?? [];
    if (fromInFlight.length === 1) return fromInFlight[0];
    // The only gateway call in flight may be on another server: its client must be one that reaches this one.
    const only = this.active.size === 1 ? [...this.active][0] : undefined;
    return only !== undefined && reaches(passthroughReach(clientOfOrigin(only)), server) ? only : undefined;
  }

  private serverRequestHooks(): ServerRequestHooks {
    return {
      elicitationModes: { form: true, url: true },
      elicit: async (params, ctx) => {
        const origin = this.originOf(ctx.origin, ctx.server);
        const why = this.cannotForward(origin, "elicitation", ctx);
        if (why !== undefined || origin === undefined) {
          this.options.logger.warn({ server: ctx.server }, `elicitation from ${ctx.server} declined: ${why}`);
          return { action: "decline" };
        }
        const mode = "mode" in params && params.mode === "url" ? "url" : "form";
        const supported = clientCapabilities(origin)?.elicitation;
        // A client that declared `elicitation: {}` supports form mode (the 2025-06-18 shape).
        if (mode === "url" && supported?.url === undefined) {
          this.options.logger.warn({ server: ctx.server }, `URL elicitation from ${ctx.server} declined: the client supports form mode only`);
          return { action: "decline" };
        }
        if (!isModernRequest(origin.ctx)) return origin.ctx.mcpReq.elicitInput(params, { signal: ctx.signal });
        // A 2026-07-28 client: the question goes out in the call's next input_required answer.
        const asked = this.rounds.ask(origin, { method: "elicitation/create", params }, ctx.signal);
        if (asked === undefined) {
          this.options.logger.warn({ server: ctx.server }, `elicitation from ${ctx.server} declined: the 2026-07-28 client's request is not a tool call (input rounds are offered for tools/call)`);
          return { action: "decline" };
        }
        const view = await asked;
        return view.kind === "elicit" ? { action: view.action, ...(view.content === undefined ? {} : { content: view.content as ElicitContent }) } : { action: "cancel" };
      },
      sample: async (params, ctx) => {
        const origin = this.originOf(ctx.origin, ctx.server);
        const why = this.cannotForward(origin, "sampling", ctx);
        if (why !== undefined || origin === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Sampling is not available through the mcpvm gateway here: ${why}`);
        if (!isModernRequest(origin.ctx)) return origin.ctx.mcpReq.requestSampling(params, { signal: ctx.signal });
        const asked = this.rounds.ask(origin, { method: "sampling/createMessage", params }, ctx.signal);
        if (asked === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Sampling is not available through the mcpvm gateway here: the 2026-07-28 client's request is not a tool call (input rounds are offered for tools/call)");
        const view = await asked;
        if (view.kind !== "sampling") throw new ProtocolError(ProtocolErrorCode.InternalError, "The client's answer was not a sampling result.");
        return view.result;
      },
      listRoots: (ctx) => this.roots.list(this.originOf(ctx.origin, ctx.server), ctx),
      rootsConnection: (server, send) => this.roots.connection(server, send),
    };
  }

  private cannotForward(origin: GatewayOrigin | undefined, what: "elicitation" | "sampling", ctx: ServerRequestContext): string | undefined {
    if (origin === undefined) {
      // The fast lane serves only clients that declared neither capability: the SDK path's reason for them.
      if (isFastLaneOrigin(ctx.origin.origin)) return `the gateway's client does not support ${what}`;
      return ctx.origin.inFlight.length > 1 ? "calls of several clients are in flight on that server, so it is unclear whose it is" : "no client call is in flight on that server";
    }
    const capabilities = clientCapabilities(origin);
    if (what === "elicitation" && capabilities?.elicitation === undefined) return "the gateway's client does not support elicitation";
    if (what === "sampling" && capabilities?.sampling === undefined) return "the gateway's client does not support sampling";
    return undefined;
  }
}

/** The client the HTTP layer authenticated for this call (as server-factory's clientOf); undefined on stdio. */
function clientOfOrigin(origin: GatewayOrigin): ClientScope | undefined {
  const http = (origin.ctx as { http?: { authInfo?: { extra?: Record<string, unknown> } } }).http;
  return http?.authInfo?.extra?.client as ClientScope | undefined;
}

/** The request or message came during a fast-lane call, or while one was in flight on that server with others. */
function fastLaneInvolved(resolved: ServerRequestContext["origin"] | undefined): boolean {
  if (resolved === undefined) return false;
  return isFastLaneOrigin(resolved.origin) || (resolved.how === "unknown" && resolved.inFlight.some(isFastLaneOrigin));
}

type ElicitContent = NonNullable<Extract<Awaited<ReturnType<NonNullable<ServerRequestHooks["elicit"]>>>, { content?: unknown }>["content"]>;
