import { sameTools, ToolsetsFileWatch } from "./toolset-follow.js";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { McpvmHost } from "../host/index.js";
import type { Progress } from "@modelcontextprotocol/server";
import type { CallerOptions, ClientManagerEvent } from "../mcp/client-manager/index.js";
import { describeHeld, McpCallError, type McpService } from "../mcp/service/index.js";
import { telemetry, type SpanScope } from "../telemetry/telemetry.js";
import { errorMessage, isMcpvmError } from "../util/errors.js";
import { builtinArgs, builtinToolDefinitions, isBuiltinTool, type BuiltinToolName } from "./builtin-tools.js";
import { CodeMode } from "./code-mode.js";
import { ClientViews, visibleDirect, type ClientView } from "./clients/client-view.js";
import { allowsServer, UNSCOPED, type ClientScope } from "./clients/scope.js";
import { runForClient } from "../logging/caller.js";
import { callDirectTool } from "./direct-call.js";
import { ToolDirectory } from "./directory.js";
import { Equipment, type DirectTool, type EquipReport } from "./equipment.js";
import { GatewayError, unknownToolError } from "./errors.js";
import { HealthMonitor } from "./health-monitor.js";
import { logToolCall, type RequestInfo } from "./request-log.js";
import { errorResult } from "./results.js";
import type { GatewaySettings } from "./settings.js";
import { ToolsetTools } from "./toolset-tools.js";
import { ExposedServer } from "./exposed.js";
import type { FastLaneOrigin, GatewayOrigin } from "./passthrough/origin.js";
import type { ToolsetStore } from "./toolsets/store.js";
import { explainUnknownKeys } from "../util/zod-key-suggestions.js";

export interface GatewayOptions {
  readonly host: McpvmHost;
  readonly service: McpService;
  readonly logger: Logger;
  readonly toolsets: ToolsetStore;
  readonly settings: GatewaySettings;
  /** `mcpvm serve --expose <server>`: that server's tools under their own names. */
  readonly expose?: string;
}

export interface CallContext {
  readonly signal: AbortSignal;
  /** The client session (HTTP session id, "stdio", …) for logs. */
  readonly session: string;
  readonly rpcId: string | number;
  /** Who is calling and what its token allows; the single gateway token (everything) when absent. */
  readonly caller?: ClientScope;
  /** For traces: the MCP client's clientInfo.name, the face, and the request's params._meta (traceparent on stdio). */
  readonly client?: string | undefined;
  readonly transport?: "http" | "stdio";
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
  /** The client request the call is for: upstream elicitation, sampling and logs go back to it (a fast-lane call has none to go back to). */
  readonly origin?: GatewayOrigin | FastLaneOrigin;
  /** The client asked for progress (sent a progressToken). */
  readonly onProgress?: (progress: Progress) => void;
}

/**
 * The gateway's behaviour independent of transport: which tools exist (code mode, toolset
 * management, equipped direct tools) and what a call does. The active toolset is gateway-wide:
 * one `mcpvm serve` process serves one person, and every connected client sees the same tools.
 */
export class Gateway {
  readonly directory: ToolDirectory;
  readonly equipment = new Equipment();
  readonly exposed: ExposedServer | undefined;
  private readonly codeMode: CodeMode;
  private readonly toolsetTools: ToolsetTools;
  private readonly listeners = new Set<() => void>();
  private readonly monitor: HealthMonitor;
  private readonly views: ClientViews;
  private unsubscribe: (() => void) | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private toolsetsFollow: Promise<void> = Promise.resolve();
  private toolsetsTimer: NodeJS.Timeout | undefined;
  private readonly toolsetsWatch: ToolsetsFileWatch;
  /** Applies a config.json edit before the request is answered (see followConfig). */
  private configCheck: () => Promise<void> = () => Promise.resolve();

  constructor(private readonly options: GatewayOptions) {
    this.toolsetsWatch = new ToolsetsFileWatch(options.toolsets.file);
    this.directory = new ToolDirectory(options.service, options.logger);
    this.exposed = options.expose === undefined ? undefined : new ExposedServer(options.expose, options.service, options.logger);
    this.codeMode = new CodeMode(options.host, this.directory, options.settings);
    this.views = new ClientViews(this.directory, options.toolsets);
    this.toolsetTools = new ToolsetTools({
      store: options.toolsets,
      directory: this.directory,
      equipment: this.equipment,
      equip: (name, caller) => this.equip(name, caller),
      unequip: () => this.unequip(),
    });
    this.monitor = new HealthMonitor({
      servers: () => options.service.clients.serverNames(),
      state: (name) => options.service.clients.status(name).state,
      ping: (name, timeoutMs) => options.service.clients.ping(name, timeoutMs),
      close: (name) => options.service.clients.close(name),
      reconnect: async (name) => {
        // The monitor's own retries are spaced by its backoff; calls that failed while the server was down must not have used up its reconnects.
        options.service.clients.forgetFailures(name);
        await options.service.catalog(name);
      },
      onGaveUp: () => this.refreshEquipment("server unavailable"),
      logger: options.logger,
      settings: options.settings,
    });
  }

  get service(): McpService {
    return this.options.service;
  }

  /** Watches upstream listings (and the monitor watches connections) to keep direct tools in step. */
  start(): void {
    this.unsubscribe ??= this.options.service.clients.subscribe((event) => this.onClientEvent(event));
    this.monitor.start();
    // An idle gateway notices a toolset edit too, so connected clients are told without asking (as for config.json).
    this.toolsetsTimer ??= setInterval(() => void this.followToolsetsFile().catch(() => undefined), 1_000);
    this.toolsetsTimer.unref();
  }

  /** Called whenever the exposed tool list changed; transports turn it into notifications/tools/list_changed. */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every request first applies a config.json edit the follower sees (src/gateway/config-follow.ts). */
  followConfig(check: () => Promise<void>): void {
    this.configCheck = check;
  }

  /** For requests answered outside this class (resources, prompts): a config.json edit is applied first. */
  checkConfig(): Promise<void> {
    return this.configCheck();
  }

  /**
   * After config.json added, removed or changed servers: every client told at once (the list of
   * servers in list_mcp_tools changed), unapproved newcomers named in the log (never started), then
   * toolsets re-resolved (a removed server's tools leave; told again if the equipped tools changed).
   */
  async serversChanged(): Promise<void> {
    this.emitChanged();
    await this.directory.blocked();
    await this.views.refresh();
    await this.refreshEquipment("config.json changed");
  }

  /** The tools a client sees: every tool for the single token, its allow-list for a scoped client token. */
  async listTools(client: ClientScope = UNSCOPED): Promise<Tool[]> {
    await this.configCheck();
    await this.followToolsetsFile();
    const view = await this.views.view(client);
    const serverNote = await this.directory.note(view.access?.servers);
    const builtins = builtinToolDefinitions({ serverNote }).filter((t) => view.builtinAllowed(t.name as BuiltinToolName));
    const own = [...builtins, ...this.directTools(client, view).map((t) => t.definition)];
    // The exposed server's tools: for clients that may reach that server (not for toolset-bound ones).
    if (this.exposed === undefined || client.toolset !== undefined || !allowsServer(client, this.exposed.server)) return own;
    const exposed = await this.exposed.list(new Set(own.map((t) => t.name))).catch((error: unknown) => {
      this.options.logger.warn({ server: this.exposed?.server }, `exposed server unavailable: ${this.options.host.redactor.redact(errorMessage(error))}`);
      return [];
    });
    return [...own, ...exposed];
  }

  /**
   * Answers one tools/call: a result (a tool's own failure, bad arguments, a held tool: `isError`),
   * or a rejection with a ProtocolError (-32602) when the gateway has no tool of that name for this client.
   */
  callTool(name: string, rawArgs: Record<string, unknown> | undefined, context: CallContext): Promise<CallToolResult> {
    const traced = { method: "tools/call", tool: name, session: context.session, rpcId: context.rpcId, client: context.client, transport: context.transport ?? "stdio", meta: context.meta };
    const work = (): Promise<CallToolResult> => telemetry().mcpRequest(traced, (scope) => this.answerCall(name, rawArgs, context, scope));
    // Upstream calls made for this one (directly or by a script) are attributed to the client in the activity log.
    return context.caller === undefined ? work() : runForClient(context.caller.name, work);
  }

  private async answerCall(name: string, rawArgs: Record<string, unknown> | undefined, context: CallContext, scope: SpanScope): Promise<CallToolResult> {
    const args = rawArgs ?? {};
    const client = context.caller ?? UNSCOPED;
    const info: RequestInfo = { requestId: randomUUID(), session: context.session, rpcId: context.rpcId, client: client.name };
    const started = performance.now();
    let server: string | undefined = isBuiltinTool(name) ? undefined : this.options.expose;
    try {
      await this.configCheck();
      await this.followToolsetsFile();
      const view = await this.views.view(client);
      server = this.findDirect(client, view, name)?.ref.server ?? server;
      const result = await this.dispatch(name, args, context, view);
      logToolCall(this.options.logger, info, { tool: name, server, argKeys: Object.keys(args), durationMs: performance.now() - started, result });
      if (result.isError === true) scope.outcome("tool_error");
      return result;
    } catch (error) {
      logToolCall(this.options.logger, info, { tool: name, server, argKeys: Object.keys(args), durationMs: performance.now() - started, error });
      scope.outcome("error", isMcpvmError(error) ? error.code : "INTERNAL");
      if (isMcpvmError(error)) {
        const message = this.options.host.redactor.redact(error.message);
        // Counted and logged as a failed call above; answered as a protocol error (the spec's "unknown tool"), not a tool result.
        if (error.code === "GATEWAY_TOOL_UNKNOWN") throw unknownToolError(name, message);
        return errorResult(message, error.code);
      }
      this.options.logger.error({ requestId: info.requestId, err: errorMessage(error) }, "internal error in tools/call");
      return errorResult("Internal gateway error; see the gateway log.", "INTERNAL");
    }
  }

  async equip(name: string, caller: CallerOptions = {}): Promise<EquipReport> {
    this.toolsetsWatch.mark();
    const toolset = await this.options.toolsets.get(name);
    const { report, changed } = await this.equipment.equip(this.directory, toolset, caller);
    for (const missing of report.missing) this.options.logger.warn({ toolset: name, ref: missing.ref }, `toolset ${name}: ${missing.ref} is not available: ${missing.reason}`);
    for (const collision of report.collisions) {
      this.options.logger.warn({ toolset: name, name: collision.name, refs: collision.refs, assigned: collision.assigned }, `toolset ${name}: flattened name collision on ${collision.name}`);
    }
    this.options.logger.info({ toolset: name, tools: report.tools.length, missing: report.missing.length }, `toolset ${name} equipped`);
    if (changed) this.emitChanged();
    return report;
  }

  /** Per request, and once a second when idle (start): an edit of toolsets.json applied before the request is answered. */
  private followToolsetsFile(): Promise<void> {
    // Chained synchronously: a request that comes while an edit is applied waits for it too.
    if (this.toolsetsWatch.changed()) this.toolsetsFollow = this.toolsetsFollow.then(() => this.applyToolsetsFile());
    return this.toolsetsFollow;
  }

  /**
   * toolsets.json changed: the equipped toolset is re-equipped when its tools changed (when it was
   * deleted or the file no longer reads, the tools equipped before stay, and the log says why), and
   * clients bound to a toolset by their token are told when theirs changed.
   */
  private async applyToolsetsFile(): Promise<void> {
    if (await this.views.reload().catch(() => false)) this.emitChanged();
    const equipped = this.equipment.toolset;
    if (equipped === undefined) return;
    try {
      const saved = await this.options.toolsets.get(equipped.name);
      if (!sameTools(saved, equipped)) await this.equip(equipped.name);
    } catch (error) {
      const why = this.options.host.redactor.redact(errorMessage(error));
      this.options.logger.warn({ toolset: equipped.name, file: this.options.toolsets.file }, `toolset ${equipped.name}: ${this.options.toolsets.file} changed, but ${why}; keeping the toolset as it was equipped before (fix the file or \`mcpvm toolset build\` it again)`);
    }
  }

  unequip(): boolean {
    const had = this.equipment.unequip();
    if (had) {
      this.options.logger.info({}, "toolset unequipped");
      this.emitChanged();
    }
    return had;
  }

  async close(): Promise<void> {
    this.monitor.stop();
    clearInterval(this.toolsetsTimer);
    this.toolsetsTimer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.refreshing.catch(() => undefined);
  }

  private directTools(client: ClientScope, view: ClientView): DirectTool[] {
    return view.equipment !== undefined ? visibleDirect(client, view.equipment.list()) : visibleDirect(client, this.equipment.list());
  }

  private findDirect(client: ClientScope, view: ClientView, name: string): DirectTool | undefined {
    return this.directTools(client, view).find((t) => t.name === name);
  }

  private async dispatch(name: string, args: Record<string, unknown>, context: CallContext, view: ClientView): Promise<CallToolResult> {
    const caller: CallerOptions = { signal: context.signal, ...(context.origin === undefined ? {} : { origin: context.origin }) };
    const extras = context.onProgress === undefined ? {} : { onProgress: context.onProgress };
    const client = context.caller ?? UNSCOPED;
    if (isBuiltinTool(name)) {
      if (!view.builtinAllowed(name)) {
        throw new GatewayError("GATEWAY_CLIENT_FORBIDDEN", `The token of client "${client.name}" does not allow ${name} (a client limited to a toolset or servers cannot change or list toolsets).`, {
          data: { tool: name, client: client.name },
        });
      }
      return this.builtin(name, args, caller, view, context.onProgress);
    }
    const exposedAllowed = this.exposed !== undefined && client.toolset === undefined && allowsServer(client, this.exposed.server);
    const direct = this.findDirect(client, view, name) ?? (exposedAllowed ? await this.exposedTool(name, caller) : undefined);
    if (direct === undefined) {
      // A held tool of the exposed server is named as such, not as an unknown one.
      const held = exposedAllowed && this.exposed !== undefined ? await this.exposed.held(name, caller) : undefined;
      if (held !== undefined && this.exposed !== undefined) {
        const server = this.exposed.server;
        throw new McpCallError("MCP_TOOL_HELD", describeHeld(server, held), { data: { server, tool: name, reason: held.reason } });
      }
      throw new GatewayError("GATEWAY_TOOL_UNKNOWN", `Unknown tool: this gateway has no tool "${name}"${this.equipment.toolset === undefined ? " (no toolset is equipped)" : ""}; list the tools again.`, {
        data: { tool: name },
      });
    }
    return callDirectTool(this.options.service, this.options.host.redactor, direct, args, caller, extras);
  }

  private async exposedTool(name: string, caller: CallerOptions): Promise<DirectTool | undefined> {
    if (this.exposed === undefined) return undefined;
    const taken = new Set([...this.equipment.list().map((t) => t.name)]);
    return this.exposed.find(name, taken, caller);
  }

  private async builtin(name: BuiltinToolName, raw: Record<string, unknown>, caller: CallerOptions, view: ClientView, onProgress: CallContext["onProgress"]): Promise<CallToolResult> {
    const parsed = builtinArgs[name].safeParse(raw);
    if (!parsed.success) {
      const problems = explainUnknownKeys(parsed.error.issues, builtinArgs[name], name).map((i) => `${i.path.join(".") || "(arguments)"}: ${i.message}`).join("; ");
      throw new GatewayError("GATEWAY_INVALID_ARGUMENTS", `Invalid arguments for ${name}: ${problems}`, { data: { tool: name } });
    }
    const context = { signal: caller.signal ?? new AbortController().signal, ...(view.access === undefined ? {} : { access: view.access }), ...(onProgress === undefined ? {} : { onProgress }), ...(caller.origin === undefined ? {} : { origin: caller.origin }) };
    const args = parsed.data as Record<string, unknown>;
    switch (name) {
      case "list_mcp_tools":
        return this.codeMode.listMcpTools(args as { server?: string; query?: string }, context);
      case "run_mcp_script":
        return this.codeMode.runMcpScript(args as { script: string; timeoutMs?: number }, context);
      case "search_tools":
        return this.codeMode.searchTools(args as { query: string; limit?: number }, context);
      case "discover-all-tools":
        return this.codeMode.discoverAllTools(args as { server?: string }, context);
      case "build-toolset":
        return this.toolsetTools.build(args as { name: string; tools: string[]; description?: string }, caller);
      case "equip-toolset":
        return this.toolsetTools.equip(args as { name: string }, caller);
      case "unequip-toolset":
        return this.toolsetTools.unequip();
      case "list-toolsets":
        return this.toolsetTools.list();
      case "get-active-toolset":
        return this.toolsetTools.getActive();
      case "delete-toolset":
        return this.toolsetTools.delete(args as { name: string });
    }
  }

  private onClientEvent(event: ClientManagerEvent): void {
    // A client toolset whose tools came or went with the upstream's listing: its clients are told.
    if (event.type === "tools") void this.views.refresh().then((changed) => {
      if (changed) this.emitChanged();
    });
    // The exposed server's tools are the gateway's own list: its change is every client's news.
    if (event.type === "tools" && event.reason === "list_changed" && event.server === this.exposed?.server) this.emitChanged();
    const toolset = this.equipment.toolset;
    if (event.type !== "tools" || toolset === undefined) return;
    if (!toolset.tools.some((ref) => ref.startsWith(`${event.server}.`))) return;
    void this.refreshEquipment(`${event.server} tools ${event.reason}`);
  }

  /** Re-resolves the equipped toolset after an upstream change, one refresh at a time. */
  private refreshEquipment(reason: string): Promise<void> {
    this.refreshing = this.refreshing.then(async () => {
      const toolset = this.equipment.toolset;
      if (toolset === undefined) return;
      try {
        const { changed, report } = await this.equipment.equip(this.directory, toolset, {});
        this.options.logger.info({ toolset: toolset.name, reason, changed, tools: report.tools.length, missing: report.missing.length }, "toolset re-resolved");
        if (changed) this.emitChanged();
      } catch (error) {
        this.options.logger.warn({ toolset: toolset.name, reason }, `toolset ${toolset.name} could not be re-resolved: ${errorMessage(error)}`);
      }
    });
    return this.refreshing;
  }

  private emitChanged(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.options.logger.warn({}, `a tools-changed listener threw: ${errorMessage(error)}`);
      }
    }
  }
}
