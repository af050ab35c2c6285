import type { Logger } from "pino";
import type { AuditLog } from "../audit-log/index.js";
import type { ConfigFile } from "../config/config-file.js";
import type { ConfigPaths } from "../config/paths.js";
import type { ActivityLog } from "../logging/activity-log.js";
import type { Redactor } from "../logging/redact.js";
import type { McpServerEntry, McpServers, PromptInput } from "../mcp/config/index.js";
import type { McpAccess, McpModuleOptions, McpService, SecondOpinionReviewer, ServerChange } from "../mcp/service/index.js";
import { unavailableHostModule, type HostModules } from "../sandbox/types.js";
import { errorMessage, McpvmError } from "../util/errors.js";
import { traceStartup } from "../util/startup-trace.js";
import type { McpPluginConfig } from "../../plugins/mcp/config.js";

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
  /** Replaced (with `tools` and `modules`) when a running gateway applies a config.json edit: see reconfigure. */
  servers: ConfiguredMcpServers;
  /** The guest's `tools` global over every configured server (RunRequest.toolsGlobal). */
  tools: Readonly<Record<string, string>>;
  /** The `host:mcp-<name>` modules of `servers`, set only after a reconfigure (the plugin's own table holds until then). */
  modules: HostModules | undefined;
  /** Builds the module table of a set of servers, the way the plugin's load did. */
  readonly table: (servers: McpServers) => HostModules;
}

export interface HostMcpOptions {
  readonly paths: ConfigPaths;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** config.json as the host currently has it. */
  readonly configFile: () => ConfigFile;
  /** Checks what else the plugin's load must refuse on (config.json `flows`); throws to refuse it. */
  readonly validate: () => void;
  readonly activity: { readonly log: ActivityLog; readonly face: () => string };
  readonly audit: AuditLog;
  readonly redactor: Redactor;
  readonly logger: Logger;
  readonly promptInput?: PromptInput | undefined;
  /** Applied to the service when it is built: the face's server-request hooks and login interaction. */
  readonly prepare: (service: McpService) => void;
}

const RELOADED = "MCP was reloaded (config or plugins changed) while this run was starting its servers; run it again.";

/**
 * The host's MCP side. When the mcp plugin loads, only its settings and `mcpServers` are validated
 * (a bad entry still refuses the plugin) and the lazy `host:mcp-<name>` modules and the `tools`
 * table are listed from the config (./mcp-setup.ts). The service itself, with its code
 * (./mcp-parts.ts: client manager, audit, type generator, approvals, pins, OAuth), is built the first
 * time something needs it: a guest's require of a server's module, or a face asking for it. Every
 * check lives in the service, so approval before spawn, pins and the audit at listing are unchanged.
 */
export class HostMcp {
  private setup: McpSetup | undefined;
  private built: McpService | undefined;
  private building: Promise<McpService> | undefined;
  /** Stops sending the SDK's warnings to this host's log (see sdk-warnings.ts). */
  private unrouteSdkWarnings: (() => void) | undefined;
  private parts: typeof import("./mcp-parts.js") | undefined;
  private readonly listeners = new Set<(service: McpService) => void>();
  /** Servers removed from config.json while running: their modules say so rather than "unknown module". */
  private readonly removedServers = new Set<string>();

  constructor(private readonly options: HostMcpOptions) {}

  /** The service if it has been built. */
  service(): McpService | undefined {
    return this.built;
  }

  /** The configured servers while the mcp plugin is loaded; undefined when it is not. */
  servers(): ConfiguredMcpServers | undefined {
    return this.setup?.servers;
  }

  /**
   * The guest's `tools` table while the mcp plugin is loaded; for a gateway client, only the
   * servers its allow-list names (after restrict(), which loads what this needs).
   */
  toolsGlobal(access?: McpAccess): Readonly<Record<string, string>> | undefined {
    const table = this.setup?.tools;
    if (table === undefined || access === undefined) return table;
    const parts = this.parts;
    // Fails closed: without the service's parts nothing here can say what the client may use.
    if (parts === undefined) return Object.freeze({});
    return Object.freeze(Object.fromEntries(Object.entries(table).filter(([, module]) => parts.accessAllows(access, module.slice("mcp-".length)))));
  }

  /** Calls `listener` with the service when it is built (at once if it already is); returns the unsubscribe. */
  onService(listener: (service: McpService) => void): () => void {
    this.listeners.add(listener);
    if (this.built !== undefined) listener(this.built);
    return () => this.listeners.delete(listener);
  }

  /** The service, built now if need be; undefined while the mcp plugin is not loaded. */
  build(): Promise<McpService> | undefined {
    return this.setup === undefined ? undefined : this.buildFor(this.setup);
  }

  /** The mcp plugin's modules (the plugin's createHostFunctions): validates, lists, builds nothing. */
  async modules(pluginConfig: unknown, callOptions: McpModuleOptions): Promise<HostModules> {
    const light = await import("./mcp-setup.js");
    const config = light.mcpPluginConfigSchema.parse(pluginConfig ?? {});
    const servers = light.parseMcpServersJson(this.options.configFile().mcpServers ?? {}, { file: this.options.paths.configFile, nativePluginNames: light.DEFAULT_NATIVE_PLUGIN_NAMES });
    this.options.validate();
    const load = async (server: string, context: { readonly signal: AbortSignal; readonly deadline: number }) => {
      const service = await this.buildFor(setup);
      return (this.parts as typeof import("./mcp-parts.js")).loadMcpModule(service, server, context, callOptions);
    };
    const setup: McpSetup = {
      config,
      servers: configuredServers(servers),
      tools: light.toolsGlobalTable(Object.keys(servers).sort()),
      modules: undefined,
      table: (all) => light.mcpModuleTable(all, load, callOptions.scrubError),
    };
    this.setup = setup;
    return setup.table(servers);
  }

  /**
   * A config.json edit applied while running (a gateway's follower): the configured servers, the
   * guest's `tools` table and `host:mcp-<name>` modules (a removed server's says so), and the built
   * service (see McpService.reconfigure). Resolves once applied, with `closed`: when the servers
   * taken out are closed (after their calls in flight).
   */
  async reconfigure(servers: McpServers, change: ServerChange, drainMs: number): Promise<{ readonly closed: Promise<void> }> {
    const setup = this.setup;
    if (setup === undefined) return { closed: Promise.resolve() };
    for (const name of change.removed) this.removedServers.add(name);
    const gone: Record<string, HostModules[string]> = {};
    for (const name of this.removedServers) {
      if (Object.hasOwn(servers, name)) {
        this.removedServers.delete(name);
        continue;
      }
      // "config.json", not its path: this text reaches the guest (and the model) as it is.
      const message = `server "${name}" was removed from config.json while mcpvm was running; add it back there to use it again`;
      gone[`mcp-${name}`] = unavailableHostModule({ message, code: "MCP_SERVER_UNKNOWN" });
    }
    setup.servers = configuredServers(servers);
    setup.tools = (await import("./mcp-setup.js")).toolsGlobalTable(Object.keys(servers).sort());
    setup.modules = { ...gone, ...setup.table(servers) };
    return { closed: this.built?.reconfigure(servers, change, drainMs) ?? Promise.resolve() };
  }

  /** A run's modules with the current `host:mcp-<name>` table once a reconfigure replaced the plugin's. */
  current(modules: HostModules): HostModules {
    const table = this.setup?.modules;
    if (table === undefined) return modules;
    return { ...Object.fromEntries(Object.entries(modules).filter(([key]) => !key.startsWith("mcp-"))), ...table };
  }

  /** A run's modules cut to a gateway client's allow-list (which needs the service's catalogs). */
  async restrict(modules: HostModules, access: McpAccess): Promise<HostModules> {
    const service = await this.build();
    if (service === undefined) return modules;
    return (this.parts as typeof import("./mcp-parts.js")).restrictMcpModules(modules, service, access);
  }

  /**
   * Forgets the plugin's load at once (reload, close); resolves to the service that was built or
   * being built, if any, for the caller to close once the plugins are disposed.
   */
  forget(): Promise<McpService | undefined> {
    this.unrouteSdkWarnings?.();
    this.unrouteSdkWarnings = undefined;
    const building = this.building;
    this.built = undefined;
    this.setup = undefined;
    this.building = undefined;
    return building === undefined ? Promise.resolve(undefined) : building.catch(() => undefined);
  }

  /** The service for `setup`, built once (concurrent callers share the build). */
  private buildFor(setup: McpSetup): Promise<McpService> {
    if (this.setup !== setup) return Promise.reject(new HostError("MCP_RELOADED", RELOADED));
    if (this.built !== undefined) return Promise.resolve(this.built);
    if (this.building === undefined) {
      const building = this.create(setup);
      this.building = building;
      building.catch(() => {
        if (this.building === building) this.building = undefined;
      });
    }
    return this.building;
  }

  private async create(setup: McpSetup): Promise<McpService> {
    const parts = (this.parts ??= await import("./mcp-parts.js"));
    traceStartup("host: MCP service loaded");
    const { McpService, McpApprovalStore, McpPinStore, OAuthLogins, OAuthTokenStore, routeSdkWarnings } = parts;
    const { paths, redactor, logger, promptInput } = this.options;
    // The SDK's OAuth notes (console.warn) go to the log, redacted; mcpvm says what happened in its own words.
    this.unrouteSdkWarnings ??= routeSdkWarnings((text) => logger.debug({}, redactor.redact(text)));
    const { config } = setup;
    const service = new McpService({
      servers: setup.servers.all,
      env: this.options.env,
      approvals: new McpApprovalStore(paths.approvedMcpFile),
      pins: new McpPinStore(paths.pinsFile),
      childCwd: paths.home,
      statusFile: paths.serverStatusFile,
      executableDigestsFile: paths.executableDigestsFile,
      configFile: paths.configFile,
      activity: this.options.activity,
      audit: this.options.audit,
      oauth: new OAuthLogins(new OAuthTokenStore(paths.oauthTokensFile), (values) => redactor.add(values)),
      redactor,
      logger,
      callsPerSecond: config.callsPerSecond,
      ...(config.secondOpinion ? this.secondOpinionReviewer(parts) : {}),
      clientLimits: { maxLiveConnections: config.maxLiveConnections, idleTimeoutMs: config.idleTimeoutMs, maxReconnects: config.maxReconnects },
      ...(promptInput === undefined ? {} : { promptInput }),
    });
    if (this.setup !== setup) {
      // Reloaded (or closed) while the code loaded: this service is nobody's.
      await service.close();
      throw new HostError("MCP_RELOADED", RELOADED);
    }
    this.options.prepare(service);
    this.built = service;
    for (const listener of this.listeners) listener(service);
    return service;
  }

  /** The LLM second opinion on tool definitions, when turned on; without a configured model it is skipped and said so. */
  private secondOpinionReviewer({ modelConfigSchema, resolveModel }: typeof import("./mcp-parts.js")): { secondOpinion?: SecondOpinionReviewer } {
    const { logger, redactor } = this.options;
    const unusable = (error: unknown) => logger.warn({}, `plugins.mcp.config.secondOpinion is on but no model can be used (${errorMessage(error)}); only the rule-based audit runs`);
    let resolved;
    try {
      resolved = resolveModel(modelConfigSchema.optional().parse(this.options.configFile().model), this.options.env);
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
          onUnusable: (tool, reason) => logger.warn({ tool }, `LLM second opinion unusable for ${tool}: ${redactor.redact(reason)}`),
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
}

function configuredServers(servers: McpServers): ConfiguredMcpServers {
  const names = Object.keys(servers).sort();
  return {
    serverNames: () => [...names],
    enabledServers: () => names.filter((name) => servers[name]?.enabled !== false),
    entry: (name) => (Object.hasOwn(servers, name) ? servers[name] : undefined),
    all: servers,
  };
}
