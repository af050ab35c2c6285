import type { Logger } from "pino";
import { describeZodIssues, loadConfigFile, type ConfigFile } from "../config/config-file.js";
import { DEFAULT_NATIVE_PLUGIN_NAMES, mcpPluginConfigSchema, parseMcpServersJson } from "../host/mcp-setup.js";
import { parseFlowPolicy } from "../mcp/flow/policy.js";
import { GatewayError } from "./errors.js";
import { parseGatewaySettings } from "./settings.js";
import type { McpServers } from "../mcp/config/index.js";
import { RACY_WINDOW_MS, statFileStamp } from "../mcp/service/index.js";
import { errorMessage } from "../util/errors.js";
import { diffServers, isEmptyDiff, mergeEntries, restartNeeded, type ServersDiff } from "./config-diff.js";

/** config.json as read and validated the way a start would (the same schemas); throws when it cannot be used. */
export interface ReadConfig {
  readonly config: ConfigFile;
  readonly servers: McpServers;
}

/**
 * Reads config.json with the checks a gateway's start makes of it (the envelope, `mcpServers`, the
 * mcp plugin's settings, `gateway`, `flows`), so an edit that would not start keeps the running one.
 */
export async function readGatewayConfig(file: string): Promise<ReadConfig> {
  // A file gone while the gateway runs is an editor's save by rename (or a mistake), never "remove every server".
  const config = await loadConfigFile(file, { missingIsEmpty: false });
  const servers = parseMcpServersJson(config.mcpServers ?? {}, { file, nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES });
  const plugin = mcpPluginConfigSchema.safeParse(config.plugins?.mcp?.config ?? {});
  if (!plugin.success) {
    const issues = plugin.error.issues.map((issue) => ({ ...issue, path: ["plugins", "mcp", "config", ...issue.path] }));
    throw new GatewayError("GATEWAY_CONFIG_INVALID", describeZodIssues(file, issues), { data: { file } });
  }
  parseGatewaySettings(config.gateway, file);
  parseFlowPolicy(config.flows, file);
  return { config, servers };
}

export interface ConfigFollowOptions {
  readonly file: string;
  readonly logger: Logger;
  /** config.json as the gateway started with it: what sections that need a restart are compared against. */
  readonly running: ConfigFile;
  /** The validated servers the gateway started with. */
  readonly servers: McpServers;
  readonly read: () => Promise<ReadConfig>;
  /** Applies an edit of the servers; resolves once new requests see it (draining goes on behind). */
  readonly apply: (next: ReadConfig, diff: ServersDiff) => Promise<void>;
  readonly redact: (text: string) => string;
  /** Between checks of an idle gateway (requests check on their own); 1 s by default. */
  readonly intervalMs?: number;
}

/**
 * Follows config.json while the gateway runs, as it follows toolsets.json and approvals: a request
 * stats the file (one synchronous stat, as the approval re-check does) and a timer checks an idle
 * gateway, so connected clients are told of new servers without asking. An edit is read and validated
 * whole; a file that does not validate keeps the last good configuration (logged, nothing touched).
 */
export class ConfigFollower {
  private stamp: string | undefined;
  private modifiedMs = 0;
  private servers: McpServers;
  private reloading: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private lastProblem: string | undefined;
  private reportedRestart = "";

  constructor(private readonly options: ConfigFollowOptions) {
    this.servers = options.servers;
  }

  /**
   * Starts the idle-time checks. No stamp is taken here: the first check reads the file once more, so
   * an edit made between the gateway's own read and now is not missed.
   */
  start(): void {
    this.timer ??= setInterval(() => void this.poll(), this.options.intervalMs ?? 1_000);
    // The follower must never keep a gateway that is shutting down alive.
    this.timer.unref();
  }

  /** Per request: the edit applied first when the file changed since it was last read (or is being applied). */
  check(): Promise<void> {
    if (statFileStamp(this.options.file)?.key !== this.stamp) return this.reload();
    return this.reloading ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.reloading?.catch(() => undefined);
  }

  /** A write within the timestamps' tick of the last one can leave every stamp equal: a recent file is read again. */
  private poll(): Promise<void> {
    const now = statFileStamp(this.options.file);
    if (now?.key !== this.stamp || Date.now() - this.modifiedMs <= RACY_WINDOW_MS) return this.reload();
    return Promise.resolve();
  }

  private remember(): void {
    const now = statFileStamp(this.options.file);
    this.stamp = now?.key;
    this.modifiedMs = now?.modifiedMs ?? 0;
  }

  /** One reload at a time; a change seen meanwhile runs another after it. */
  private reload(): Promise<void> {
    if (this.reloading !== undefined) {
      this.again = true;
      return this.reloading;
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        await this.once();
      } while (this.again);
    };
    const reloading = run()
      .catch((error: unknown) => this.options.logger.error({ file: this.options.file }, `applying ${this.options.file} failed: ${this.options.redact(errorMessage(error))}`))
      .finally(() => {
        if (this.reloading === reloading) this.reloading = undefined;
      });
    this.reloading = reloading;
    return reloading;
  }

  private async once(): Promise<void> {
    const { file, logger } = this.options;
    // Stamped before the read: a write racing with it changes the stamp again and is read next time.
    this.remember();
    let next: ReadConfig;
    try {
      next = await this.options.read();
    } catch (error) {
      const problem = this.options.redact(errorMessage(error));
      if (problem !== this.lastProblem) {
        const serving = Object.keys(this.servers).sort().join(", ") || "none";
        logger.error({ file }, `${file} changed but cannot be used; the gateway goes on with its last good configuration (MCP servers: ${serving}), nothing was started or stopped. ${problem}`);
      }
      this.lastProblem = problem;
      return;
    }
    this.lastProblem = undefined;
    this.reportRestart(restartNeeded(this.options.running, next.config));
    const diff = diffServers(this.servers, next.servers);
    if (isEmptyDiff(diff)) return;
    const servers = mergeEntries(this.servers, next.servers, diff);
    this.servers = servers;
    logger.info({ file, added: diff.added, removed: diff.removed, changed: diff.changed }, `${file} changed: MCP servers ${describe(diff)}`);
    await this.options.apply({ config: next.config, servers }, diff);
  }

  /** Settings that apply only at start are named once per distinct set, never silently ignored. */
  private reportRestart(paths: readonly string[]): void {
    const key = paths.join(",");
    if (key === this.reportedRestart) return;
    this.reportedRestart = key;
    if (paths.length === 0) return;
    this.options.logger.warn(
      { file: this.options.file, needsRestart: paths },
      `${this.options.file}: ${paths.join(", ")} changed; that needs a restart of the gateway (it goes on with the values it started with; with replicas, restart them one at a time)`,
    );
  }
}

function describe(diff: ServersDiff): string {
  const parts = [
    diff.added.length > 0 ? `added: ${diff.added.join(", ")}` : "",
    diff.removed.length > 0 ? `removed: ${diff.removed.join(", ")} (closed once their calls in flight finish)` : "",
    diff.changed.length > 0 ? `changed: ${diff.changed.join(", ")} (the old one closed once its calls finish; the new definition starts on next use, its approval checked again)` : "",
  ];
  return parts.filter((part) => part !== "").join("; ");
}
