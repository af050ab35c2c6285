import { Client, LOG_LEVEL_META_KEY, SdkError, SdkErrorCode, type LoggingLevel, type McpSubscription, type CallToolResult, type Implementation, type Progress, type ServerCapabilities, type Tool } from "@modelcontextprotocol/client";
import type { McpvmError } from "../../util/errors.js";
import type { McpServerLaunch } from "../types.js";
import { startTimeout } from "./abort.js";
import { classifyCallFailure } from "./classify.js";
import type { TimeoutSource } from "./call-budget.js";
import { connectFailure, connectTimeoutError, diedError, type StartupDiagnostics } from "./connect-errors.js";
import type { LoginDriver, ServerIdentity } from "./options.js";
import { isUnauthorized } from "../oauth/failure.js";
import { completeLogin, finishLogin, grantFailure, MAX_LOGIN_ROUNDS, retryAfterLogin } from "./connection-login.js";
import { FrameTooLargeError } from "./line-framer.js";
import type { RawToolCalls } from "./raw-call.js";
import { ProcessGroupStdioTransport } from "./stdio-transport.js";
import { openTransport, type OpenedTransport, type TransportDeps } from "./transports.js";
import type { ResolvedOrigin } from "./call-origin.js";
import { installNotificationHandlers } from "./notifications.js";
import { requestTarget, sendServerRequest, type ServerRequestMethod, type ServerRequestParams, type ServerRequestResult } from "./requests.js";
import { clientCapabilities, installServerRequestHandlers, withOwnRoots, type ServerRequestHooks } from "./server-requests.js";
import type { ClientManagerEvent } from "./events.js";

export interface ConnectionDeps extends Omit<TransportDeps, "onStdoutGarbage"> {
  readonly clientInfo: Implementation;
  readonly maxToolPages: number;
  readonly redact: (text: string) => string;
  readonly stderrTail: () => string;
  /** The connection ended without close() being called (process exit, HTTP session gone). */
  readonly onDied: (connection: Connection, error: McpvmError) => void;
  readonly onToolListChanged: (connection: Connection) => void;
  /** config.json, for messages that say which setting to change. */
  readonly configFile?: string;
  /** Timings of the start-up steps (spawn, initialize, tools/list), for the debug log. */
  readonly onPhase?: (phase: StartupPhase, ms: number, detail: Readonly<Record<string, unknown>>) => void;
  /** Notifications other than tools/list_changed become these events (see notifications.ts). */
  readonly emit: (event: ClientManagerEvent) => void;
  readonly maxNotificationsPerSecond: number;
  readonly serverRequests: ServerRequestHooks | undefined;
  /** The caller a server→client request belongs to (see call-origin.ts). */
  readonly resolveOrigin: () => ResolvedOrigin;
  readonly protocol: "legacy" | "auto";
  /** The OAuth driver of an http/sse server (see LoginDriver). */
  readonly login?: (launch: McpServerLaunch) => LoginDriver | undefined;
}

export type StartupPhase = "spawn" | "initialize" | "tools/list";

export interface CallOptions {
  readonly timeoutMs: number;
  /** Which limit timeoutMs is, for the timeout's message (see call-budget.ts). */
  readonly timeoutSource?: TimeoutSource;
  readonly signal?: AbortSignal;
  /** notifications/progress for this request (the SDK sends a progressToken only when this is set). */
  readonly onProgress?: (progress: Progress) => void;
  /** The log level the caller asked for: a 2026-07-28 server is told it in the request's `_meta` (see withMeta). */
  readonly logLevel?: LoggingLevel;
}

/** Lines on stdout that were not JSON-RPC, for the diagnosis of a failed start. */
interface StdoutGarbage {
  lines: number;
  sample: string | undefined;
}

/** One live MCP session: its transport (and process), its SDK client and the tools it listed. */
export class Connection {
  tools: readonly Tool[] = [];
  identity: ServerIdentity = { serverInfo: undefined, instructions: undefined };
  private established = false;
  private closing = false;
  /** Why the transport cut the server off (an endless stdout line), which says more than "Connection closed". */
  private cutOff: FrameTooLargeError | undefined;
  /**
   * progressToken -> the request's progress callback, kept until a macrotask after the request
   * settles. The SDK runs notification handlers in a microtask but handles a response at once and
   * forgets the request's progress handler then, so a server's last progress notification, read in
   * the same chunk as the response, reached nobody ("unknown token"); with our own tokens and
   * routes it is delivered, before the caller sees the result.
   */
  private readonly progressRoutes = new Map<string, (progress: Progress) => void>();
  private progressTokens = 0;
  /** A 2026-07-28 server's resource subscriptions: uri -> its open subscriptions/listen stream. */
  private readonly listening = new Map<string, McpSubscription>();
  /** Tools with an outputSchema (they take the SDK path), computed once per tool list. */
  private typedTools = new Set<string>();
  private typedToolsOf: readonly Tool[] | undefined;

  private constructor(
    readonly server: string,
    private readonly client: Client,
    private readonly opened: OpenedTransport,
    private readonly deps: ConnectionDeps,
    private readonly garbage: StdoutGarbage,
    private readonly launch: McpServerLaunch,
    private readonly login: LoginDriver | undefined,
  ) {}

  get pid(): number | undefined {
    return this.opened.pid();
  }

  /**
   * Spawn or contact the server, initialize, and list every tool page, all within `timeoutMs`.
   * On timeout, failure or abort the process is killed before this rejects. An http/sse server that
   * needs a login gets one between attempts (outside the timeout: a person is at the browser), when
   * the face allows a browser; otherwise the attempt fails with MCP_LOGIN_REQUIRED.
   */
  static async open(server: string, launch: McpServerLaunch, deps: ConnectionDeps, limits: { timeoutMs: number; signal: AbortSignal }): Promise<Connection> {
    const login = launch.transport === "stdio" ? undefined : deps.login?.(launch);
    if (login !== undefined) {
      try {
        await login.prepare();
      } catch (error) {
        throw grantFailure(error, server, deps, login) ?? error;
      }
      login.beginOperation();
    }
    for (let round = 0; ; round++) {
      const attempt = await Connection.attempt(server, launch, deps, limits, login);
      if (attempt.ok) return attempt.connection;
      const params = login !== undefined && round < MAX_LOGIN_ROUNDS && isUnauthorized(attempt.reason) ? await completeLogin(server, login, deps.redact) : undefined;
      if (params === undefined || limits.signal.aborted) throw attempt.error;
      await finishLogin(server, attempt.opened, params, deps.redact);
    }
  }

  private static async attempt(
    server: string,
    launch: McpServerLaunch,
    deps: ConnectionDeps,
    limits: { timeoutMs: number; signal: AbortSignal },
    login: LoginDriver | undefined,
  ): Promise<{ ok: true; connection: Connection } | { ok: false; error: unknown; reason: unknown; opened: OpenedTransport }> {
    const garbage: StdoutGarbage = { lines: 0, sample: undefined };
    const serverRequests = withOwnRoots(deps.serverRequests, launch.roots);
    const opened = openTransport(
      launch,
      {
        ...deps,
        onStdoutGarbage: (line) => {
          garbage.lines += 1;
          garbage.sample ??= line.slice(0, 200);
        },
        onSpawned: (pid, ms) => deps.onPhase?.("spawn", ms, { pid, command: launch.transport === "stdio" ? deps.redact([launch.command, ...launch.args].join(" ")) : undefined }),
      },
      login,
    );
    const client = new Client(deps.clientInfo, {
      listMaxPages: deps.maxToolPages,
      capabilities: clientCapabilities(serverRequests),
      versionNegotiation: { mode: deps.protocol },
    });
    const self = new Connection(server, client, opened, deps, garbage, launch, login);
    client.setNotificationHandler("notifications/tools/list_changed", () => deps.onToolListChanged(self));
    // Replaces the SDK's own progress routing (see Connection.progressRoutes).
    client.setNotificationHandler("notifications/progress", (notification) => self.routeProgress(notification.params));
    installNotificationHandlers(client, { server, emit: deps.emit, redact: deps.redact, maxPerSecond: deps.maxNotificationsPerSecond, resolveOrigin: deps.resolveOrigin });
    installServerRequestHandlers(client, serverRequests, { server, origin: deps.resolveOrigin, era: () => self.era() });
    client.onclose = () => self.handleClose();
    client.onerror = (error) => {
      if (error instanceof FrameTooLargeError) self.cutOff ??= error;
    };
    const scope = startTimeout(limits.timeoutMs, limits.signal);
    const killOnAbort = (): void => void opened.kill();
    scope.signal.addEventListener("abort", killOnAbort, { once: true });
    const phase = (name: StartupPhase, since: number, detail: Record<string, unknown> = {}): number => {
      const now = performance.now();
      deps.onPhase?.(name, Math.round(now - since), detail);
      return now;
    };
    try {
      const started = performance.now();
      await client.connect(opened.transport, { signal: scope.signal, timeout: limits.timeoutMs });
      const initialized = phase("initialize", opened.startedAt() ?? started, { protocolVersion: client.getNegotiatedProtocolVersion() });
      const listed = await client.listTools(undefined, { signal: scope.signal, timeout: limits.timeoutMs });
      phase("tools/list", initialized, { tools: listed.tools.length });
      self.tools = listed.tools;
      self.identity = { serverInfo: client.getServerVersion(), instructions: client.getInstructions() };
      self.established = true;
      return { ok: true, connection: self };
    } catch (error) {
      // A failure on this side (an answer the SDK could not read) finds the server still running: the
      // kill below is then ours, and "exited (killed by SIGKILL)" would hide why it was stopped.
      const stoppedByUs = opened.exit() === undefined && self.cutOff === undefined && !connectionLost(error);
      self.closing = true;
      await opened.kill();
      await client.close().catch(() => undefined);
      const diag = stoppedByUs ? { ...self.diagnostics(), exit: undefined } : self.diagnostics();
      const reason = self.cutOff ?? error;
      const failure =
        (scope.timedOut() ? undefined : grantFailure(reason, server, deps, login)) ??
        (scope.timedOut() ? connectTimeoutError(diag, limits.timeoutMs) : connectFailure(reason, self.cutOff === undefined ? diag : { ...diag, exit: undefined }, launch.transport === "stdio" ? launch.command : undefined));
      return { ok: false, error: failure, reason, opened };
    } finally {
      scope.signal.removeEventListener("abort", killOnAbort);
      scope.dispose();
    }
  }

  private diagnostics(): StartupDiagnostics {
    return {
      server: this.server,
      launch: this.launch,
      ...(this.deps.configFile === undefined ? {} : { configFile: this.deps.configFile }),
      exit: this.opened.exit(),
      garbageLines: this.garbage.lines,
      garbageSample: this.garbage.sample === undefined ? undefined : this.deps.redact(this.garbage.sample),
      stderrTail: this.deps.stderrTail(),
      redact: this.deps.redact,
    };
  }

  private handleClose(): void {
    if (!this.established || this.closing) return;
    this.closing = true;
    this.deps.onDied(this, this.deathError());
  }

  /** Why this connection ended: exit status, stray stdout, stderr tail. */
  deathError(): McpvmError {
    return diedError(this.diagnostics());
  }

  /** What the server declared at initialize (or discover); undefined before that. */
  capabilities(): ServerCapabilities | undefined {
    return this.client.getServerCapabilities();
  }

  /** The protocol generation this session speaks. */
  era(): "legacy" | "modern" {
    return this.client.getProtocolEra() ?? "legacy";
  }

  protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  /** Any request of ServerRequestMap, with the same timeout, cancellation and error classification as tools/call. */
  async request<M extends ServerRequestMethod>(method: M, params: ServerRequestParams<M>, options: CallOptions): Promise<ServerRequestResult<M>> {
    const target = requestTarget(method, params);
    const modernSubscription = (method === "resources/subscribe" || method === "resources/unsubscribe") && this.client.getProtocolEra() === "modern";
    const send = modernSubscription
      ? (sdk: { timeout: number; signal?: AbortSignal }) => this.listenFor(method, (params as { uri: string }).uri, sdk) as Promise<ServerRequestResult<M>>
      : (sdk: { timeout: number; signal?: AbortSignal }, progressToken: string | undefined) => sendServerRequest(this.client, method, this.withMeta(params, progressToken, options), sdk);
    return this.send(send, options, {
      tool: method,
      method,
      ...(target === undefined ? {} : { target: this.deps.redact(target) }),
    });
  }

  /**
   * One request through the SDK with the call's timeout, signal and progress, a login round where
   * the server asks for one, and every failure classified (OAuth failures as themselves).
   */
  private async send<T>(
    request: (sdk: { timeout: number; signal?: AbortSignal }, progressToken: string | undefined) => Promise<T>,
    options: CallOptions,
    what: { tool: string; method?: string; target?: string },
  ): Promise<T> {
    const onProgress = options.onProgress;
    const progressToken = onProgress === undefined ? undefined : `mcpvm-${++this.progressTokens}`;
    if (progressToken !== undefined && onProgress !== undefined) this.progressRoutes.set(progressToken, onProgress);
    try {
      return await this.withLogin(() => request({ timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) }, progressToken));
    } catch (error) {
      const oauth = grantFailure(error, this.server, this.deps, this.login);
      if (oauth !== undefined) throw oauth;
      throw classifyCallFailure(this.cutOff ?? error, {
        server: this.server,
        ...what,
        timeoutMs: options.timeoutMs,
        ...(options.timeoutSource === undefined ? {} : { timeoutSource: options.timeoutSource }),
        cancelled: options.signal?.aborted === true,
        redact: this.deps.redact,
        diagnostics: () => this.diagnostics(),
      });
    } finally {
      // Notifications read with the response are handled in a microtask; the route outlives them.
      if (progressToken !== undefined) setImmediate(() => this.progressRoutes.delete(progressToken));
    }
  }

  /** notifications/progress to the request whose token it names (see progressRoutes). */
  routeProgress(params: { progressToken: string | number; progress: number; total?: number; message?: string }): void {
    const { progressToken, ...progress } = params;
    this.progressRoutes.get(String(progressToken))?.(progress);
  }

  /** tools/list again (all pages), e.g. after notifications/tools/list_changed. */
  async relist(timeoutMs: number): Promise<readonly Tool[]> {
    const scope = startTimeout(timeoutMs);
    try {
      const listed = await this.client.listTools(undefined, { signal: scope.signal, timeout: timeoutMs });
      this.tools = listed.tools;
      return listed.tools;
    } finally {
      scope.dispose();
    }
  }

  /**
   * Liveness probe (the gateway's health monitor): `ping` on a 2025-era session; the 2026-07-28
   * revision removed ping, so a tools/list stands in there.
   */
  async ping(timeoutMs: number): Promise<void> {
    const scope = startTimeout(timeoutMs);
    const options = { signal: scope.signal, timeout: timeoutMs };
    try {
      if (this.client.getProtocolEra() === "modern") await this.client.listTools(undefined, options);
      else await this.client.ping(options);
    } catch (error) {
      throw classifyCallFailure(error, { server: this.server, tool: "ping", timeoutMs, cancelled: false, redact: this.deps.redact });
    } finally {
      scope.dispose();
    }
  }

  /**
   * tools/call. The timeout is the SDK's own request timeout: when it fires the SDK sends
   * notifications/cancelled, and so it does when the caller's signal aborts.
   */
  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const raw = options.onProgress === undefined ? this.rawCalls(tool) : undefined;
    if (raw !== undefined) return this.send((sdk) => raw.call(tool, args, sdk), options, { tool });
    return this.send((sdk, progressToken) => this.client.callTool(this.withMeta({ name: tool, arguments: args }, progressToken, options), sdk), options, { tool });
  }

  /**
   * Request params with the `_meta` keys the call needs: a progressToken when the caller listens for
   * progress, and on a 2026-07-28 session the caller's log level (the era has no logging/setLevel;
   * the SDK client lets these keys stand beside its own envelope). A 2025 session's wire is unchanged.
   */
  private withMeta<P>(params: P, progressToken: string | undefined, options: CallOptions): P {
    const logLevel = options.logLevel !== undefined && this.era() === "modern" ? options.logLevel : undefined;
    if (progressToken === undefined && logLevel === undefined) return params;
    // A list request may have no params at all.
    const record = (params ?? {}) as P & { _meta?: Record<string, unknown> };
    return {
      ...record,
      _meta: { ...record._meta, ...(progressToken === undefined ? {} : { progressToken }), ...(logLevel === undefined ? {} : { [LOG_LEVEL_META_KEY]: logLevel }) },
    };
  }

  /**
   * The raw path (raw-call.ts) when it gives the same answer as the SDK client: our own stdio
   * transport, a 2025-era session (a 2026 one encodes results differently), no progress asked
   * for, and a tool without an outputSchema (the SDK client checks structured content against it).
   */
  private rawCalls(tool: string): RawToolCalls | undefined {
    const transport = this.opened.transport;
    if (!(transport instanceof ProcessGroupStdioTransport) || !this.established || this.era() !== "legacy") return undefined;
    if (this.typedToolsOf !== this.tools) {
      this.typedToolsOf = this.tools;
      this.typedTools = new Set(this.tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name));
    }
    return this.typedTools.has(tool) ? undefined : transport.raw;
  }

  /** A request that needs a login again (expired session, step-up) gets one: connection-login.ts. */
  private withLogin<T>(request: () => Promise<T>): Promise<T> {
    return this.login === undefined ? request() : retryAfterLogin(this.server, this.login, this.opened, this.deps.redact, request);
  }

  /**
   * resources/subscribe and unsubscribe on a 2026-07-28 connection, where they no longer exist: one
   * `subscriptions/listen` stream per URI, open until unsubscribed (its updates arrive as
   * notifications/resources/updated, like a 2025 server's).
   */
  private async listenFor(method: "resources/subscribe" | "resources/unsubscribe", uri: string, sdk: { timeout: number; signal?: AbortSignal }): Promise<Record<string, never>> {
    if (method === "resources/unsubscribe") {
      const open = this.listening.get(uri);
      this.listening.delete(uri);
      await open?.close();
      return {};
    }
    if (this.listening.has(uri)) return {};
    const opened = await this.client.listen({ resourceSubscriptions: [uri] }, { timeout: sdk.timeout });
    this.listening.set(uri, opened);
    return {};
  }

  /** Closes the session; a stdio server gets EOF, then SIGTERM, then SIGKILL (process group). */
  async close(): Promise<void> {
    for (const open of this.listening.values()) void open.close().catch(() => undefined);
    this.listening.clear();
    this.closing = true;
    await this.client.close().catch(() => this.opened.kill());
  }
}

/** The server's end went away (it exited or closed its pipes), as opposed to a failure on this side. */
function connectionLost(error: unknown): boolean {
  return SdkError.isInstance(error) && (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected || error.code === SdkErrorCode.SendFailed);
}
