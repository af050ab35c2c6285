import { Client, type CallToolResult, type Implementation, type Progress, type ServerCapabilities, type Tool } from "@modelcontextprotocol/client";
import type { McpvmError } from "../../util/errors.js";
import type { McpServerLaunch } from "../types.js";
import { startTimeout } from "./abort.js";
import { classifyCallFailure } from "./classify.js";
import { connectFailure, connectTimeoutError, diedError, type StartupDiagnostics } from "./connect-errors.js";
import type { ServerIdentity } from "./options.js";
import { FrameTooLargeError } from "./line-framer.js";
import { openTransport, type OpenedTransport, type TransportDeps } from "./transports.js";
import type { ResolvedOrigin } from "./call-origin.js";
import { installNotificationHandlers } from "./notifications.js";
import { requestTarget, sendServerRequest, type ServerRequestMethod, type ServerRequestParams, type ServerRequestResult } from "./requests.js";
import { clientCapabilities, installServerRequestHandlers, type ServerRequestHooks } from "./server-requests.js";
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
}

export type StartupPhase = "spawn" | "initialize" | "tools/list";

export interface CallOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** notifications/progress for this request (the SDK sends a progressToken only when this is set). */
  readonly onProgress?: (progress: Progress) => void;
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

  private constructor(
    readonly server: string,
    private readonly client: Client,
    private readonly opened: OpenedTransport,
    private readonly deps: ConnectionDeps,
    private readonly garbage: StdoutGarbage,
    private readonly launch: McpServerLaunch,
  ) {}

  get pid(): number | undefined {
    return this.opened.pid();
  }

  /**
   * Spawn or contact the server, initialize, and list every tool page, all within `timeoutMs`.
   * On timeout, failure or abort the process is killed before this rejects.
   */
  static async open(server: string, launch: McpServerLaunch, deps: ConnectionDeps, limits: { timeoutMs: number; signal: AbortSignal }): Promise<Connection> {
    const garbage: StdoutGarbage = { lines: 0, sample: undefined };
    const opened = openTransport(launch, {
      ...deps,
      onStdoutGarbage: (line) => {
        garbage.lines += 1;
        garbage.sample ??= line.slice(0, 200);
      },
      onSpawned: (pid, ms) => deps.onPhase?.("spawn", ms, { pid, command: launch.transport === "stdio" ? deps.redact([launch.command, ...launch.args].join(" ")) : undefined }),
    });
    const client = new Client(deps.clientInfo, {
      listMaxPages: deps.maxToolPages,
      capabilities: clientCapabilities(deps.serverRequests),
      versionNegotiation: { mode: deps.protocol },
    });
    const self = new Connection(server, client, opened, deps, garbage, launch);
    client.setNotificationHandler("notifications/tools/list_changed", () => deps.onToolListChanged(self));
    installNotificationHandlers(client, { server, emit: deps.emit, redact: deps.redact, maxPerSecond: deps.maxNotificationsPerSecond, resolveOrigin: deps.resolveOrigin });
    installServerRequestHandlers(client, deps.serverRequests, { server, origin: deps.resolveOrigin, era: () => self.era() });
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
      return self;
    } catch (error) {
      self.closing = true;
      await opened.kill();
      await client.close().catch(() => undefined);
      const diag = self.diagnostics();
      const reason = self.cutOff ?? error;
      throw scope.timedOut() ? connectTimeoutError(diag, limits.timeoutMs) : connectFailure(reason, self.cutOff === undefined ? diag : { ...diag, exit: undefined }, launch.transport === "stdio" ? launch.command : undefined);
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
    try {
      return await sendServerRequest(this.client, method, params, {
        timeout: options.timeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
      });
    } catch (error) {
      const target = requestTarget(method, params);
      throw classifyCallFailure(this.cutOff ?? error, {
        server: this.server,
        tool: method,
        method,
        ...(target === undefined ? {} : { target: this.deps.redact(target) }),
        timeoutMs: options.timeoutMs,
        cancelled: options.signal?.aborted === true,
        redact: this.deps.redact,
      });
    }
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
    try {
      return await this.client.callTool(
        { name: tool, arguments: args },
        {
          timeout: options.timeoutMs,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
        },
      );
    } catch (error) {
      throw classifyCallFailure(this.cutOff ?? error, {
        server: this.server,
        tool,
        timeoutMs: options.timeoutMs,
        cancelled: options.signal?.aborted === true,
        redact: this.deps.redact,
      });
    }
  }

  /** Closes the session; a stdio server gets EOF, then SIGTERM, then SIGKILL (process group). */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => this.opened.kill());
  }
}
