import type { Logger } from "pino";
import { loadConfigFile, type ConfigFile } from "../config/config-file.js";
import { resolveConfigPaths, type ConfigPaths } from "../config/paths.js";
import { createHostPathStripper } from "../logging/host-paths.js";
import { silentLogger } from "../logging/logger.js";
import { ActivityLog } from "../logging/activity-log.js";
import { Redactor } from "../logging/redact.js";
import type { McpServerEntry, McpServers, PromptInput } from "../mcp/config/index.js";
import type { McpPluginConfig } from "../../plugins/mcp/config.js";
import type { ServerRequestHooks } from "../mcp/client-manager/index.js";
import type { LoginInteraction } from "../mcp/oauth/index.js";
import type { ConfirmCall, McpAccess, McpModuleOptions, McpService, SecondOpinionReviewer } from "../mcp/service/index.js";
// From its own file, not the package index: the index also exports the plugin auditor, whose parser
// (Babel, 590 KB) a run with approved, unchanged plugins never needs.
import { PluginManager, type LoadedHostModules } from "../plugin-system/manager.js";
import { resolveLimits } from "../sandbox/limits.js";
import { createEngine, type CreatedEngine } from "../sandbox/select.js";
import { ATTR } from "../telemetry/names.js";
import { telemetry } from "../telemetry/telemetry.js";
import { rewordUnavailable, type EngineChoice, type RunLimits, type RunResult } from "../sandbox/types.js";
import { errorMessage, McpvmError } from "../util/errors.js";
import { redactRunResult } from "./redact-result.js";
import { AuditLog, type AuditFace, type ReadOnlyAuditEntry } from "../audit-log/index.js";
import type { AskFlow } from "../mcp/flow/index.js";
import { parseFlowPolicy, type FlowPolicy } from "../mcp/flow/policy.js";
import { currentUserName } from "./user.js";
import { traceStartup } from "../util/startup-trace.js";

export class HostError extends McpvmError<"MCP_PLUGIN_NOT_ENABLED" | "MCP_RELOADED"> {}

/** The configured MCP servers as the host knows them once the mcp plugin loaded, before any service is built. */
export interface ConfiguredMcpServers {
  serverNames(): string[];
  enabledServers(): string[];
  /** The server's validated entry; undefined for a name that is not configured. */
  entry(name: string): McpServerEntry | undefined;
  readonly all: McpServers;
}

interface McpSetup {
  readonly config: McpPluginConfig;
  readonly servers: ConfiguredMcpServers;
  /** The guest's `tools` global over every configured server. */
  readonly prelude: string;
}

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
  /** The MCP service once something needed it (a guest's require of a server module, a face asking). */
  private mcpService: McpService | undefined;
  /** Set when the mcp plugin loaded: its settings and the configured servers, from which the service is built on first use. */
  private mcpSetup: McpSetup | undefined;
  private mcpBuilding: Promise<McpService> | undefined;
  /** The MCP service's code (./mcp-parts.ts), imported with the service's first build. */
  private mcpParts: typeof import("./mcp-parts.js") | undefined;
  private readonly mcpListeners = new Set<(service: McpService) => void>();
  private loaded: Promise<LoadedHostModules> | undefined;
  private engineCreated: Promise<CreatedEngine> | undefined;
  private startedEngineTaken = false;
  private confirmCall: ConfirmCall | undefined;
  private face: string;
  private readonly activity: ActivityLog;
  private askFlow: AskFlow | undefined;
  private loginInteraction: LoginInteraction | undefined;
  private serverRequests: ServerRequestHooks | undefined;

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
    this.activity = new ActivityLog(paths.activityFile, (message) => this.logger.warn({ file: paths.activityFile }, message));
    this.stripHostPaths = createHostPathStripper({ "<mcpvm-home>": paths.home, ...defaultRoots() });
    this.audit = new AuditLog({
      file: paths.auditLogFile,
      headFile: paths.auditHeadFile,
      user: currentUserName(options.env),
      face: options.face ?? "cli",
      redactor: this.redactor,
      // A gateway's home may be mounted read-only (docs/DEPLOY.md): its audit events then go to its
      // structured log, which the container platform keeps, instead of failing the call.
      ...(this.face === "gateway" ? { whenReadOnly: (entry: ReadOnlyAuditEntry) => this.logger.info({ audit: entry }, `audit: ${entry.event} ${entry.subject} ${entry.decision} (the config home is read-only)`) } : {}),
    });
    this.plugins = new PluginManager({
      paths,
      env: options.env,
      audit: this.audit,
      services: { mcpModules: (config) => this.mcpModules(config) },
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
    this.mcpService?.clients.setServerRequestHooks(hooks);
  }

  /** How a server that needs an OAuth login gets one on this face (a browser); undefined: it fails with MCP_LOGIN_REQUIRED. */
  setLoginInteraction(interaction: LoginInteraction | undefined): void {
    this.loginInteraction = interaction;
    this.mcpService?.setLoginInteraction(interaction);
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
      this.loaded = this.plugins.loadHostModules();
      this.loaded.catch(() => (this.loaded = undefined));
    }
    return this.loaded;
  }

  /**
   * The MCP service if it has been built: it exists only while the mcp plugin is approved, enabled and
   * loaded, and is built on first use (requireMcp, mcpIfOn, a guest requiring a server's module).
   */
  mcp(): McpService | undefined {
    return this.mcpService;
  }

  /**
   * The configured servers while the mcp plugin is loaded (undefined when MCP is off), without building
   * the service: names, which are enabled, each entry — what a banner or a system message needs.
   */
  mcpServers(): ConfiguredMcpServers | undefined {
    return this.mcpSetup?.servers;
  }

  /** Calls `listener` with the MCP service when it is built (at once if it already is); returns the unsubscribe. */
  onMcpService(listener: (service: McpService) => void): () => void {
    this.mcpListeners.add(listener);
    if (this.mcpService !== undefined) listener(this.mcpService);
    return () => this.mcpListeners.delete(listener);
  }

  /** The MCP service, built now if the mcp plugin is loaded; undefined when MCP is off. */
  async mcpIfOn(): Promise<McpService | undefined> {
    await this.hostModules();
    return this.mcpSetup === undefined ? undefined : this.buildMcp(this.mcpSetup);
  }

  async requireMcp(): Promise<McpService> {
    const loaded = await this.hostModules();
    if (this.mcpSetup !== undefined) return this.buildMcp(this.mcpSetup);
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
      const result = await this.runInSandbox(code, options);
      scope.set({ [ATTR.engine]: result.stats.engine, [ATTR.hostCalls]: result.stats.hostCalls });
      if (!result.ok) scope.outcome("error", result.error.code);
      return result;
    });
  }

  private async runInSandbox(code: string, options: RunOptions): Promise<RunResult> {
    const [{ engine }, loaded] = await Promise.all([this.engine(), this.hostModules()]);
    traceStartup("host: engine and plugins ready, run starts");
    for (const refusal of loaded.refused) this.logger.warn({ plugin: refusal.plugin, code: refusal.error.code }, refusal.error.message);
    // Modules of plugins that are off or failed: requiring one says why (their text is masked like any host error).
    const setup = this.mcpSetup;
    let modules = { ...rewordUnavailable(loaded.unavailable, (text) => this.stripHostPaths(this.redactor.redact(text))), ...loaded.modules };
    // A gateway client's allow-list needs the service (its catalogs); the gateway built it at start.
    if (options.mcpAccess !== undefined && setup !== undefined) {
      const service = await this.buildMcp(setup);
      modules = (this.mcpParts as typeof import("./mcp-parts.js")).restrictMcpModules(modules, service, options.mcpAccess);
    }
    const result = await engine.run({
      code,
      modules: telemetry().bindHostModules(modules),
      limits: this.limits(options.limits),
      // Every configured server, so `tools.<disabled>.x()` says how to enable it.
      ...(setup === undefined ? {} : { prelude: setup.prelude }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.filename === undefined ? {} : { filename: options.filename }),
    });
    traceStartup("host: run done");
    return redactRunResult(result, this.redactor, this.stripHostPaths);
  }

  async close(): Promise<void> {
    await this.unloadPlugins();
    const created = this.engineCreated;
    this.engineCreated = undefined;
    if (created !== undefined) await (await created.catch(() => undefined))?.engine.dispose();
    else await (await this.takeStartedEngine())?.engine.dispose();
    await this.activity.flush();
  }

  private async unloadPlugins(): Promise<void> {
    const building = this.mcpBuilding;
    this.mcpService = undefined;
    this.mcpSetup = undefined;
    this.mcpBuilding = undefined;
    this.loaded = undefined;
    await this.plugins.dispose();
    await (await building?.catch(() => undefined))?.close();
  }

  /** The LLM second opinion on tool definitions, when turned on; without a configured model it is skipped and said so. */
  private secondOpinionReviewer({ modelConfigSchema, resolveModel }: typeof import("./mcp-parts.js")): { secondOpinion?: SecondOpinionReviewer } {
    const unusable = (error: unknown) => this.logger.warn({}, `plugins.mcp.config.secondOpinion is on but no model can be used (${errorMessage(error)}); only the rule-based audit runs`);
    let resolved;
    try {
      resolved = resolveModel(modelConfigSchema.optional().parse(this.configFile.model), this.options.env);
    } catch (error) {
      unusable(error);
      return {};
    }
    const model = resolved;
    // The LLM SDK is loaded when the first definition is reviewed, not by every `mcpvm run`.
    let reviewer: Promise<SecondOpinionReviewer | undefined> | undefined;
    const load = async (): Promise<SecondOpinionReviewer | undefined> => {
      const [{ createLanguageModel }, { createSecondOpinionReviewer }] = await Promise.all([import("../agent/llm/provider.js"), import("../mcp/service/second-opinion.js")]);
      try {
        return createSecondOpinionReviewer(createLanguageModel(model), {
          onUnusable: (tool, reason) => this.logger.warn({ tool }, `LLM second opinion unusable for ${tool}: ${this.redactor.redact(reason)}`),
        });
      } catch (error) {
        unusable(error);
        return undefined;
      }
    };
    return {
      secondOpinion: async (tool, signal) => {
        reviewer ??= load();
        const review = await reviewer;
        return review === undefined ? undefined : review(tool, signal);
      },
    };
  }

  /**
   * The mcp plugin's modules: its settings and mcpServers are validated now (a bad entry refuses the
   * plugin, as before), and each enabled server gets a lazy `host:mcp-<name>` module whose first
   * require builds the service (approval before spawn, pins and the audit at listing all live there).
   */
  private async mcpModules(pluginConfig: unknown) {
    const light = await import("./mcp-setup.js");
    const config = light.mcpPluginConfigSchema.parse(pluginConfig ?? {});
    const servers = light.parseMcpServers(this.configFile.mcpServers ?? {}, { file: this.paths.configFile, nativePluginNames: light.DEFAULT_NATIVE_PLUGIN_NAMES });
    this.flowPolicy();
    const names = Object.keys(servers).sort();
    const setup: McpSetup = {
      config,
      servers: {
        serverNames: () => [...names],
        enabledServers: () => names.filter((name) => servers[name]?.enabled !== false),
        entry: (name) => (Object.hasOwn(servers, name) ? servers[name] : undefined),
        all: servers,
      },
      prelude: light.toolsGlobalPrelude(names),
    };
    this.mcpSetup = setup;
    const options = this.mcpCallOptions();
    return light.mcpModuleTable(
      servers,
      async (server, context) => {
        const service = await this.buildMcp(setup);
        return (this.mcpParts as typeof import("./mcp-parts.js")).loadMcpModule(service, server, context, options);
      },
      options.scrubError,
    );
  }

  /** The service for `setup`, built once (concurrent callers share the build). */
  private buildMcp(setup: McpSetup): Promise<McpService> {
    if (this.mcpService !== undefined && this.mcpSetup === setup) return Promise.resolve(this.mcpService);
    if (this.mcpSetup !== setup) return Promise.reject(new HostError("MCP_RELOADED", "MCP was reloaded (config or plugins changed) while this run was starting its servers; run it again."));
    if (this.mcpBuilding === undefined) {
      const building = this.createMcpService(setup);
      this.mcpBuilding = building;
      building.catch(() => {
        if (this.mcpBuilding === building) this.mcpBuilding = undefined;
      });
    }
    return this.mcpBuilding;
  }

  private async createMcpService(setup: McpSetup): Promise<McpService> {
    const parts = (this.mcpParts ??= await import("./mcp-parts.js"));
    traceStartup("host: MCP service loaded");
    const { McpService, McpApprovalStore, McpPinStore, OAuthLogins, OAuthTokenStore } = parts;
    const { config } = setup;
    const service = new McpService({
      servers: setup.servers.all,
      env: this.options.env,
      approvals: new McpApprovalStore(this.paths.approvedMcpFile),
      pins: new McpPinStore(this.paths.pinsFile),
      childCwd: this.paths.home,
      statusFile: this.paths.serverStatusFile,
      executableDigestsFile: this.paths.executableDigestsFile,
      configFile: this.paths.configFile,
      activity: { log: this.activity, face: () => this.face },
      audit: this.audit,
      oauth: new OAuthLogins(new OAuthTokenStore(this.paths.oauthTokensFile), (values) => this.redactor.add(values)),
      redactor: this.redactor,
      logger: this.logger,
      callsPerSecond: config.callsPerSecond,
      ...(config.secondOpinion ? this.secondOpinionReviewer(parts) : {}),
      clientLimits: { maxLiveConnections: config.maxLiveConnections, idleTimeoutMs: config.idleTimeoutMs, maxReconnects: config.maxReconnects },
      ...(this.options.promptInput === undefined ? {} : { promptInput: this.options.promptInput }),
    });
    if (this.mcpSetup !== setup) {
      // Reloaded (or closed) while the code loaded: this service is nobody's.
      await service.close();
      throw new HostError("MCP_RELOADED", "MCP was reloaded (config or plugins changed) while this run was starting its servers; run it again.");
    }
    if (this.serverRequests !== undefined) service.clients.setServerRequestHooks(this.serverRequests);
    service.setLoginInteraction(this.loginInteraction);
    this.mcpService = service;
    for (const listener of this.mcpListeners) listener(service);
    return service;
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
      scrubError: (text) => this.stripHostPaths(this.redactor.redact(text)),
      redactValue: (value) => this.redactor.redactValue(value),
      flowPolicy: () => this.flowPolicy(),
      askFlow: () => this.askFlow,
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
