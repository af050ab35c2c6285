import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";
import { loadConfigFile, type ConfigFile } from "../config/config-file.js";
import { resolveConfigPaths, type ConfigPaths } from "../config/paths.js";
import { createHostPathStripper } from "../logging/host-paths.js";
import { silentLogger } from "../logging/logger.js";
import { RefusalWarnings } from "./refusal-warnings.js";
import { ActivityLog, DEFAULT_ACTIVITY_ROTATION } from "../logging/activity-log.js";
import { Redactor } from "../logging/redact.js";
import type { McpServers, PromptInput } from "../mcp/config/index.js";
import type { ServerRequestHooks } from "../mcp/client-manager/index.js";
import type { LoginInteraction } from "../mcp/oauth/index.js";
import type { ConfirmCall, McpAccess, McpModuleOptions, McpService, ServerChange } from "../mcp/service/index.js";
import { HostError, HostMcp, type ConfiguredMcpServers } from "./host-mcp.js";
// From its own file, not the package index: the index also exports the plugin auditor, whose parser
// (Babel, 590 KB) a run with approved, unchanged plugins never needs.
import { PluginManager, type LoadedHostModules } from "../plugin-system/manager.js";
import { resolveLimits } from "../sandbox/limits.js";
import { createEngine, type CreatedEngine } from "../sandbox/select.js";
import { ATTR } from "../telemetry/names.js";
import { telemetry } from "../telemetry/telemetry.js";
import { bindHostModules } from "../telemetry/bind-modules.js";
import { rewordUnavailable, type EngineChoice, type RunLimits, type RunResult } from "../sandbox/types.js";
import { redactRunResult } from "./redact-result.js";
import { AuditLog, DEFAULT_AUDIT_ROTATION, rotationFrom, type AuditFace, type ReadOnlyAuditEntry } from "../audit-log/index.js";
import type { AskFlow } from "../mcp/flow/index.js";
import { parseFlowPolicy, type FlowPolicy } from "../mcp/flow/policy.js";
import { currentUserName } from "./user.js";
import { traceStartup } from "../util/startup-trace.js";
import { enabledIn, planHostModules } from "../plugin-system/plan.js";
import { deferredRunModules, type RunModuleTable } from "./deferred-plugins.js";
import { currentRunOrigin, runForOrigin } from "./run-origin.js";

export { HostError, type ConfiguredMcpServers } from "./host-mcp.js";

export interface HostOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Overrides config.json `engine`. */
  readonly engine?: EngineChoice;
  /**
   * An engine the face started before opening the host (`mcpvm run` boots its worker while the rest of
   * the CLI loads). Used when it is the engine the config and --engine ask for; disposed otherwise, or
   * at close() when no run needed it. Undefined inside: the face could not start one (the host reports why).
   */
  readonly startedEngine?: Promise<CreatedEngine | undefined>;
  readonly logger?: Logger;
  /** Asks the person for VS Code `${input:id}` values; absent where nothing can ask. */
  readonly promptInput?: PromptInput;
  /** Asks the person before MCP calls that need confirmation; absent means no per-call confirmation. */
  readonly confirmCall?: ConfirmCall;
  /** Shared with the logger, so every line it writes is masked by the same secrets. */
  readonly redactor?: Redactor;
  /** Which face opened the host, as recorded in the audit log (default "cli"). */
  readonly face?: AuditFace;
  /** Answers to MCP servers' own requests (elicitation, sampling) for this face; a face may replace them (the gateway forwards). */
  readonly serverRequests?: ServerRequestHooks;
}

export interface RunOptions {
  readonly limits?: Partial<RunLimits>;
  readonly signal?: AbortSignal;
  readonly filename?: string;
  /** Only these MCP servers and tools (the gateway client's allow-list); everything when absent. */
  readonly mcpAccess?: McpAccess;
  /** The caller its MCP calls are made for (a gateway client request: its log level, its questions); see run-origin.ts. */
  readonly origin?: unknown;
}

/**
 * The one core under every face (script runner, REPL, gateway): config, plugins, the MCP service
 * and the sandbox engine, composed once and passed down. Opening it does no I/O beyond reading
 * config.json; plugins load on the first run, servers start on the first guest call.
 */
export class McpvmHost {
  readonly redactor: Redactor;
  readonly plugins: PluginManager;
  readonly logger: Logger;
  readonly stripHostPaths: (text: string) => string;
  /** The hash-chained audit log in the config home (every face records there). */
  readonly audit: AuditLog;
  /** The MCP side: the mcp plugin's modules, and the service built on first use (./host-mcp.ts). */
  private readonly mcpSide: HostMcp;
  private loaded: Promise<LoadedHostModules> | undefined;
  private engineCreated: Promise<CreatedEngine> | undefined;
  private startedEngineTaken = false;
  private confirmCall: ConfirmCall | undefined;
  private face: string;
  private readonly activity: ActivityLog;
  private askFlow: AskFlow | undefined;
  private loginInteraction: LoginInteraction | undefined;
  private serverRequests: ServerRequestHooks | undefined;
  /** Plugins that did not load: said once per problem (src/host/refusal-warnings.ts); a face that showed them marks them said. */
  readonly refusals = new RefusalWarnings();

  private constructor(
    readonly paths: ConfigPaths,
    private configFile: ConfigFile,
    private readonly options: HostOptions,
  ) {
    this.redactor = options.redactor ?? new Redactor();
    this.logger = options.logger ?? silentLogger();
    this.confirmCall = options.confirmCall;
    this.serverRequests = options.serverRequests;
    this.face = options.face ?? "cli";
    this.activity = new ActivityLog(paths.activityFile, (message) => this.logger.warn({ file: paths.activityFile }, message), rotationFrom(configFile.logs?.activity, DEFAULT_ACTIVITY_ROTATION));
    this.stripHostPaths = createHostPathStripper({ "<mcpvm-home>": paths.home, ...defaultRoots() });
    this.audit = new AuditLog({
      file: paths.auditLogFile,
      headFile: paths.auditHeadFile,
      user: currentUserName(options.env),
      face: options.face ?? "cli",
      redactor: this.redactor,
      rotation: rotationFrom(configFile.logs?.audit, DEFAULT_AUDIT_ROTATION),
      // A gateway's home may be mounted read-only (docs/DEPLOY.md): its audit events then go to its
      // structured log, which the container platform keeps, instead of failing the call.
      ...(this.face === "gateway"
        ? {
            whenReadOnly: (entry: ReadOnlyAuditEntry) => this.logger.info({ audit: entry }, `audit: ${entry.event} ${entry.subject} ${entry.decision} (the config home is read-only)`),
            whenUnwritable: (error: Error) => this.logger.error({ code: (error as { code?: unknown }).code, file: paths.auditLogFile }, `${error.message} (the call that needed it was refused)`),
          }
        : {}),
    });
    this.mcpSide = new HostMcp({
      paths,
      env: options.env,
      configFile: () => this.configFile,
      // config.json `flows` is validated when the MCP plugin loads (an invalid policy stops it).
      validate: () => void this.flowPolicy(),
      activity: { log: this.activity, face: () => this.face },
      audit: this.audit,
      redactor: this.redactor,
      logger: this.logger,
      promptInput: options.promptInput,
      prepare: (service) => {
        if (this.serverRequests !== undefined) service.clients.setServerRequestHooks(this.serverRequests);
        service.setLoginInteraction(this.loginInteraction);
      },
    });
    this.plugins = new PluginManager({
      paths,
      env: options.env,
      audit: this.audit,
      warn: (message) => this.logger.warn(message),
      services: { mcpModules: (config) => this.mcpSide.modules(config, this.mcpCallOptions()) },
    });
  }

  /** The environment the host was opened with: where ${VAR}, $BROWSER and the like are read from. */
  get env(): Readonly<Record<string, string | undefined>> {
    return this.options.env;
  }

  static async open(options: HostOptions): Promise<McpvmHost> {
    const paths = resolveConfigPaths(options.env);
    return new McpvmHost(paths, await loadConfigFile(paths.configFile), options);
  }

  get config(): ConfigFile {
    return this.configFile;
  }

  /** Re-read config.json and reload plugins on the next run (after /plugin, /mcp, /profile changes). */
  async reload(): Promise<void> {
    this.configFile = await loadConfigFile(this.paths.configFile);
    await this.unloadPlugins();
  }

  /**
   * A running gateway's config.json edit of `mcpServers` (src/gateway/config-follow.ts), applied without
   * reloading anything else: see HostMcp.reconfigure (`closed`: when the servers taken out are closed).
   */
  reconfigureMcp(config: ConfigFile, servers: McpServers, change: ServerChange, drainMs: number): Promise<{ readonly closed: Promise<void> }> {
    this.configFile = { ...this.configFile, mcpServers: config.mcpServers ?? {} };
    return this.mcpSide.reconfigure(servers, change, drainMs);
  }

  /** The face named in the activity log from now on (the dashboard, the REPL). */
  setFace(face: string): void {
    this.face = face;
  }

  setConfirmCall(confirm: ConfirmCall | undefined): void {
    this.confirmCall = confirm;
  }

  /** Who is asked when data from one server is about to reach another's tool; undefined: nobody (the `flows` policy decides). */
  setAskFlow(ask: AskFlow | undefined): void {
    this.askFlow = ask;
  }

  /**
   * Who answers MCP servers' own requests (elicitation, sampling) on this face from each server's
   * next connect; the REPL installs its own over the CLI's, before anything connects.
   */
  setServerRequests(hooks: ServerRequestHooks | undefined): void {
    this.serverRequests = hooks;
    this.mcpSide.service()?.clients.setServerRequestHooks(hooks);
  }

  /** How a server that needs an OAuth login gets one on this face (a browser); undefined: it fails with MCP_LOGIN_REQUIRED. */
  setLoginInteraction(interaction: LoginInteraction | undefined): void {
    this.loginInteraction = interaction;
    this.mcpSide.service()?.setLoginInteraction(interaction);
  }

  engine(): Promise<CreatedEngine> {
    this.engineCreated ??= this.createEngine();
    return this.engineCreated;
  }

  private async createEngine(): Promise<CreatedEngine> {
    const choice = this.options.engine ?? this.configFile.engine ?? "auto";
    const started = await this.takeStartedEngine();
    if (started?.selection.requested === choice) return started;
    await started?.engine.dispose();
    return createEngine(choice);
  }

  /** The engine the face started, once; a failed start counts as none (creating it again reports the failure). */
  private async takeStartedEngine(): Promise<CreatedEngine | undefined> {
    if (this.startedEngineTaken || this.options.startedEngine === undefined) return undefined;
    this.startedEngineTaken = true;
    return this.options.startedEngine.catch(() => undefined);
  }

  /** Loads enabled, approved plugins once; refusals are reported in the result, not thrown. */
  hostModules(): Promise<LoadedHostModules> {
    if (this.loaded === undefined) {
      this.loaded = this.plugins.loadHostModules().then((loaded) => {
        traceStartup("host: plugins loaded");
        return loaded;
      });
      this.loaded.catch(() => (this.loaded = undefined));
    }
    return this.loaded;
  }

  /**
   * The MCP service if it has been built: it exists only while the mcp plugin is approved, enabled and
   * loaded, and is built on first use (requireMcp, mcpIfOn, a guest requiring a server's module).
   */
  mcp(): McpService | undefined {
    return this.mcpSide.service();
  }

  /**
   * The configured servers while the mcp plugin is loaded (undefined when MCP is off), without building
   * the service: names, which are enabled, each entry — what a banner or a system message needs.
   */
  mcpServers(): ConfiguredMcpServers | undefined {
    return this.mcpSide.servers();
  }

  /** Calls `listener` with the MCP service when it is built (at once if it already is); returns the unsubscribe. */
  onMcpService(listener: (service: McpService) => void): () => void {
    return this.mcpSide.onService(listener);
  }

  /** The MCP service, built now if the mcp plugin is loaded; undefined when MCP is off. */
  async mcpIfOn(): Promise<McpService | undefined> {
    await this.hostModules();
    return this.mcpSide.build();
  }

  async requireMcp(): Promise<McpService> {
    const loaded = await this.hostModules();
    const service = this.mcpSide.build();
    if (service !== undefined) return service;
    const refusal = loaded.refused.find((r) => r.plugin === "mcp");
    if (refusal !== undefined) throw refusal.error;
    throw new HostError(
      "MCP_PLUGIN_NOT_ENABLED",
      "MCP is off: the mcp plugin is not enabled. Review and enable it with `mcpvm plugin approve mcp && mcpvm plugin enable mcp` (or /plugin approve mcp, /plugin enable mcp).",
    );
  }

  limits(overrides?: Partial<RunLimits>): RunLimits {
    return resolveLimits({ ...this.configFile.limits, ...overrides });
  }

  run(code: string, options: RunOptions = {}): Promise<RunResult> {
    // One span per guest run (src/telemetry), parent of the upstream calls its host calls make.
    return telemetry().sandboxRun({ filename: options.filename }, async (scope) => {
      const result = await runForOrigin(options.origin, () => this.runInSandbox(code, options));
      scope.set({ [ATTR.engine]: result.stats.engine, [ATTR.hostCalls]: result.stats.hostCalls });
      if (!result.ok) scope.outcome("error", result.error.code);
      return result;
    });
  }

  private async runInSandbox(code: string, options: RunOptions): Promise<RunResult> {
    const [{ engine }, { modules, toolsGlobal }] = await Promise.all([this.engine(), this.runModules(options.mcpAccess)]);
    traceStartup("host: engine and plugins ready, run starts");
    const result = await engine.run({
      code,
      // Host calls arrive from the engine's worker in the port's async context; bound, they run in the
      // run's, so a face can tell which of its runs a call (or its confirmation question) belongs to.
      modules: telemetry().bindHostModules(bindHostModules(modules, (fn) => AsyncLocalStorage.bind(fn))),
      limits: this.limits(options.limits),
      // Every configured server (a gateway client's: those it may use), so `tools.<disabled>.x()` says how to enable it.
      ...(toolsGlobal === undefined ? {} : { toolsGlobal }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.filename === undefined ? {} : { filename: options.filename }),
    });
    traceStartup("host: run done");
    return redactRunResult(toolsHint(result, toolsGlobal === undefined), this.redactor, this.stripHostPaths);
  }

  /**
   * A run's modules. Plugins not loaded yet are not loaded for it: their modules are listed and the
   * first require loads them (./deferred-plugins.ts), so a run that uses none pays for none. A gateway
   * client's allow-list needs the loaded service; a listing that could differ from the load loads first.
   */
  private async runModules(access: McpAccess | undefined): Promise<RunModuleTable> {
    if (this.loaded === undefined && access === undefined) {
      const plan = await planHostModules(await this.plugins.discover(enabledIn(this.configFile)), this.configFile, this.paths.configFile);
      const load = () => this.hostModules().then((loaded) => this.loadedRunModules(loaded, undefined));
      const deferred = await deferredRunModules({ plan, mcpServers: this.configFile.mcpServers, reword: this.scrub, load });
      if (deferred !== undefined) {
        // What discovery alone knows cannot load is said at once, as a run that loads the plugins says it.
        this.refusals.warn(this.logger, plan.refused);
        return deferred;
      }
    }
    return this.loadedRunModules(await this.hostModules(), access);
  }

  private async loadedRunModules(loaded: LoadedHostModules, access: McpAccess | undefined): Promise<RunModuleTable> {
    this.refusals.warn(this.logger, loaded.refused);
    // Modules of plugins that are off or failed: requiring one says why (their text is masked like any host error).
    const all = this.mcpSide.current({ ...rewordUnavailable(loaded.unavailable, this.scrub), ...loaded.modules });
    // A gateway client's allow-list needs the service (its catalogs); the gateway built it at start.
    const modules = access === undefined ? all : await this.mcpSide.restrict(all, access);
    return { modules, toolsGlobal: this.mcpSide.toolsGlobal(access) };
  }

  private readonly scrub = (text: string): string => this.stripHostPaths(this.redactor.redact(text));

  async close(): Promise<void> {
    await this.unloadPlugins();
    const created = this.engineCreated;
    this.engineCreated = undefined;
    if (created !== undefined) await (await created.catch(() => undefined))?.engine.dispose();
    else await (await this.takeStartedEngine())?.engine.dispose();
    await this.audit.settled();
    await this.activity.flush();
  }

  private async unloadPlugins(): Promise<void> {
    const service = this.mcpSide.forget();
    this.loaded = undefined;
    await this.plugins.dispose();
    await (await service)?.close();
  }

  /**
   * How guest MCP calls are confirmed and masked; `mcpvm mcp call` uses the same (callToolOnce).
   * `fallbackConfirm` asks when no face has set its own confirmation (the REPL sets one).
   */
  mcpCallOptions(fallbackConfirm?: ConfirmCall): McpModuleOptions {
    return {
      confirmCall: (request) => {
        const confirmCall = this.confirmCall ?? fallbackConfirm;
        return confirmCall === undefined ? Promise.resolve(true) : confirmCall(request);
      },
      scrubError: this.scrub,
      redactValue: (value) => this.redactor.redactValue(value),
      flowPolicy: () => this.flowPolicy(),
      askFlow: () => this.askFlow,
      origin: currentRunOrigin,
    };
  }

  /** config.json `flows`, validated when the MCP plugin loads (an invalid policy stops it with MCP_CONFIG_FLOWS_INVALID). */
  flowPolicy(): FlowPolicy {
    return parseFlowPolicy(this.configFile.flows, this.paths.configFile);
  }
}

function defaultRoots(): Record<string, string> {
  return { "<cwd>": process.cwd(), "~": process.env.HOME ?? "" };
}

/**
 * `tools.x()` while the mcp plugin is off failed as a bare "'tools' is not defined" (README and MCP.md
 * show the global): say what it is and how to turn it on, as requiring an MCP module does.
 */
function toolsHint(result: RunResult, noToolsGlobal: boolean): RunResult {
  if (!noToolsGlobal || result.ok || result.error.name !== "ReferenceError" || result.error.message !== "'tools' is not defined") return result;
  const message = "'tools' is not defined: the `tools` global (your MCP servers) exists while the mcp plugin is enabled; run `mcpvm plugin approve mcp && mcpvm plugin enable mcp`";
  // The stack starts with the old message; the printed error shows the stack's head only when it differs.
  const stack = result.error.stack?.replace(/^ReferenceError: 'tools' is not defined/, `ReferenceError: ${message}`);
  return { ...result, error: { ...result.error, message, ...(stack === undefined ? {} : { stack }) } };
}
