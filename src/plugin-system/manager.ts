import { readFile } from "node:fs/promises";
import type { AuditSink } from "../audit-log/index.js";
import { userInfo } from "node:os";
import { join } from "node:path";
import { loadConfigFile, updateConfigFile, type PluginSettings } from "../config/config-file.js";
import type { ConfigPaths } from "../config/paths.js";
import { isCompiledBuild, packageRoot } from "../util/package-root.js";
import type { AuditReport } from "./audit/audit-plugin.js";
import { PluginApprovalStore, type ApprovalRecord } from "./approval/store.js";
import { discoverPlugins, type DiscoveredPlugin, type DiscoveryResult } from "./discovery.js";
import { approveCommand, PluginError } from "./errors.js";
import { defaultImporter, importRegistration, instantiatePlugin, parsePluginConfig, type LoadedPlugin, type ModuleImporter } from "./host-loader.js";
import { approvalStatus, enabledButMissing, pluginStatus, type PluginStatus } from "./lifecycle.js";
import type { PluginManifest } from "./manifest.js";
import type { HostServices, PluginRegistration } from "./types.js";
import { privateEntryFile } from "./private-copy.js";
import { LoadWatchdog } from "./load-watchdog.js";
import { loadEnded, loadInUse } from "./late-dispose.js";
import { LoadClock } from "./load-clock.js";
import { PLUGIN_LOAD_TIMEOUT_MS, type LoadWatch } from "./load-deadline.js";
import { LoadProgress } from "./load-progress.js";
import { sideBySide } from "./side-by-side.js";
import { collectInOrder, type LoadedHostModules } from "./load-results.js";
import { errorMessage } from "../util/errors.js";
import { snapshotPlugin, summarizeAudit, type PluginSnapshot } from "./snapshot.js";
import { ScanCache } from "./audit/scan-cache.js";

export interface PluginManagerOptions {
  readonly paths: ConfigPaths;
  /** Defaults to packageRoot(); tests point it at a temporary tree. */
  readonly packageRoot?: string;
  /** Defaults to isCompiledBuild(). */
  readonly compiled?: boolean;
  readonly now?: () => Date;
  /** Recorded as `approvedBy`; defaults to the OS user name. */
  readonly user?: string;
  /** The environment plugins see in their PluginContext; defaults to none at all. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly importModule?: ModuleImporter;
  /** How long one plugin's import or createHostFunctions may take; defaults to PLUGIN_LOAD_TIMEOUT_MS. Tests shorten it. */
  readonly loadTimeoutMs?: number;
  /** Packages native plugins may import as audited-by-mcpvm dependencies; defaults to mcpvm's package.json dependencies. */
  readonly trustedPackages?: ReadonlySet<string>;
  /** Lent to native plugins only (see HostServices). */
  readonly services?: HostServices;
  /** Approvals and revocations are recorded here (the hash-chained audit log). */
  readonly audit?: AuditSink;
  /** Told what cannot be thrown: a plugin given up on at load whose late dispose failed (late-dispose.ts). */
  readonly warn?: (message: string) => void;
}

export interface PluginInfo extends PluginStatus {
  readonly manifest: PluginManifest;
  readonly dir: string;
  readonly entryFile: string;
  readonly audit: AuditReport;
  readonly approvalRecord: ApprovalRecord | undefined;
  readonly config: Readonly<Record<string, unknown>> | undefined;
  /** The approval hash of what this describes; `approve(name, { expectedHash })` approves only that. */
  readonly hash: string;
}

export type { HostModuleInfo, LoadedHostModules } from "./load-results.js";

function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The plugin lifecycle over the files on disk: discovery, audit, approval, enable/disable, loading. */
export class PluginManager {
  private readonly paths: ConfigPaths;
  private readonly root: string;
  private readonly compiled: boolean;
  private readonly now: () => Date;
  private readonly importer: ModuleImporter;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly store: PluginApprovalStore;
  private readonly scans: ScanCache;
  private trusted: ReadonlySet<string> | undefined;
  private loadedPlugins: LoadedPlugin[] = [];

  constructor(private readonly options: PluginManagerOptions) {
    this.paths = options.paths;
    this.root = options.packageRoot ?? packageRoot();
    this.compiled = options.compiled ?? isCompiledBuild();
    this.now = options.now ?? (() => new Date());
    this.importer = options.importModule ?? defaultImporter;
    this.env = options.env ?? {};
    this.trusted = options.trustedPackages;
    this.store = new PluginApprovalStore(options.paths.approvedPluginsFile);
    this.scans = new ScanCache(options.paths.pluginScansFile);
  }

  /** `only`: inspect only these folders (DiscoveryOptions.only). */
  discover(only?: (folder: string) => boolean): Promise<DiscoveryResult> {
    return discoverPlugins({ packageRoot: this.root, userPluginsDir: this.paths.userPluginsDir, compiled: this.compiled, ...(only === undefined ? {} : { only }) });
  }

  async list(): Promise<{ plugins: PluginStatus[]; errors: readonly PluginError[] }> {
    const { plugins, errors } = await this.discover();
    const [approvals, config] = await Promise.all([this.store.load(), loadConfigFile(this.paths.configFile)]);
    const statuses: PluginStatus[] = [];
    for (const plugin of plugins) {
      const snapshot = await this.snapshot(plugin);
      statuses.push(pluginStatus(snapshot, ownValue(approvals.plugins, plugin.name), ownValue(config.plugins, plugin.name)));
    }
    return { plugins: statuses, errors };
  }

  async info(name: string): Promise<PluginInfo> {
    const plugin = await this.find(name);
    const [snapshot, record, settings] = await Promise.all([this.snapshot(plugin), this.store.get(name), this.settings(name)]);
    return {
      ...pluginStatus(snapshot, record, settings),
      manifest: plugin.manifest,
      dir: plugin.dir,
      entryFile: plugin.entryFile,
      audit: snapshot.audit,
      approvalRecord: record,
      config: settings?.config,
      hash: snapshot.hash,
    };
  }

  async audit(name: string): Promise<AuditReport> {
    return (await this.snapshot(await this.find(name))).audit;
  }

  /**
   * Approve the plugin as it is on disk now. Refused while the audit has blocking findings, and with
   * `expectedHash` (what the person was shown) when the files changed since.
   */
  async approve(name: string, options: { by?: string; expectedHash?: string } = {}): Promise<ApprovalRecord> {
    const plugin = await this.find(name);
    const snapshot = await this.snapshot(plugin);
    if (options.expectedHash !== undefined && snapshot.hash !== options.expectedHash) {
      throw new PluginError("PLUGIN_CHANGED_DURING_APPROVAL", `plugin ${name} changed on disk while it was being reviewed (plugin.json or its code); nothing was approved. Run \`${approveCommand(name)}\` again to review the new version.`, { data: { plugin: name } });
    }
    if (snapshot.audit.blocked) {
      const reasons = snapshot.audit.findings.filter((finding) => finding.blocking).map((f) => `  - ${f.file}:${f.line}:${f.column} ${f.message}`);
      throw new PluginError("PLUGIN_AUDIT_BLOCKED", `plugin ${name} cannot be approved until these are fixed:\n${reasons.join("\n")}`, { data: { plugin: name } });
    }
    const record: ApprovalRecord = {
      hash: snapshot.hash,
      approvedAt: this.now().toISOString(),
      approvedBy: options.by ?? this.options.user ?? userInfo().username,
      source: plugin.source,
      version: plugin.manifest.version,
      audit: summarizeAudit(snapshot.audit),
    };
    // Recorded before it is stored: an audit log that cannot be written (or a crash between the two)
    // leaves at worst an entry for an approval that never took effect, never an unrecorded approval.
    await this.options.audit?.record({ event: "plugin.approve", subject: name, decision: "approved", details: { hash: record.hash, version: record.version, source: record.source } });
    await this.store.set(name, record);
    return record;
  }

  /** Remove the approval and switch the plugin off; works for plugins that no longer exist on disk too. */
  async revoke(name: string): Promise<boolean> {
    const removed = await this.store.remove(name);
    if ((await this.settings(name))?.enabled === true) await this.setEnabled(name, false);
    await this.options.audit?.record({ event: "plugin.revoke", subject: name, decision: removed ? "revoked" : "not-approved" });
    return removed;
  }

  async enable(name: string): Promise<void> {
    await this.requireApproval(await this.find(name));
    await this.setEnabled(name, true);
  }

  async disable(name: string): Promise<void> {
    await this.find(name);
    await this.setEnabled(name, false);
  }

  /**
   * Store the plugin's config. An approved plugin's config is validated with its registration's
   * schema first; an unapproved plugin's code is never imported, so its config is checked at load.
   */
  async setConfig(name: string, config: Record<string, unknown>): Promise<{ validated: boolean }> {
    const plugin = await this.find(name);
    const snapshot = await this.snapshot(plugin);
    const approved = approvalStatus(await this.store.get(name), snapshot.hash) === "valid";
    if (approved) {
      // Importing runs the plugin's code here, as loading does (see loadHostModules).
      const watchdog = plugin.source === "native" ? undefined : new LoadWatchdog();
      try {
        parsePluginConfig(name, await this.importApproved(snapshot, this.watchFor(snapshot, watchdog === undefined ? {} : { watchdog })), config, this.paths.configFile);
      } finally {
        await watchdog?.stop();
      }
    }
    await updateConfigFile(this.paths.configFile, (file) => {
      file.plugins = { ...file.plugins, [name]: { ...file.plugins?.[name], config } };
    });
    return { validated: approved };
  }

  /**
   * Import every enabled plugin whose approval still matches the files on disk (checked right
   * before import), create its host functions and collect declarations and hints. Plugins loaded
   * by an earlier call are disposed first.
   */
  async loadHostModules(): Promise<LoadedHostModules> {
    await this.dispose();
    const { plugins, errors } = await this.discover();
    const config = await loadConfigFile(this.paths.configFile);
    // A worker only while user plugins load: their code runs in this thread and could hold it for good.
    const watchdog = plugins.some((plugin) => plugin.source !== "native" && ownValue(config.plugins, plugin.name)?.enabled === true) ? new LoadWatchdog() : undefined;
    const progress = LoadProgress.forStderr(this.options.loadTimeoutMs ?? PLUGIN_LOAD_TIMEOUT_MS);
    const warn = this.options.warn === undefined ? {} : { warn: this.options.warn };
    // Side by side, one plugin's synchronous code holds the others back: each deadline counts its own time.
    const clock = new LoadClock();
    try {
      return await this.loadEnabled(plugins, errors, config, { ...(watchdog === undefined ? {} : { watchdog }), ...(progress === undefined ? {} : { progress }), ...warn, clock });
    } finally {
      clock.stop();
      progress?.stop();
      await watchdog?.stop();
    }
  }

  /**
   * Plugins load side by side (side-by-side.ts): each one's approval is checked in discovery order, then
   * its import and createHostFunctions run without waiting for the plugins before it, so stuck plugins
   * cost about one deadline together, not one each; the results count in discovery order (load-results.ts).
   */
  private async loadEnabled(plugins: readonly DiscoveredPlugin[], errors: readonly PluginError[], config: Awaited<ReturnType<typeof loadConfigFile>>, watch: LoadWatch): Promise<LoadedHostModules> {
    const enabled = plugins.filter((plugin) => ownValue(config.plugins, plugin.name)?.enabled === true);
    const outcomes = sideBySide(enabled, (plugin) => this.requireApproval(plugin), async (plugin, snapshot) => {
      const guard = this.watchFor(snapshot, watch);
      const registration = await this.importApproved(snapshot, guard);
      // Counted from here, not from its success: an earlier, given-up load settling while this one is being
      // created must not dispose it (late-dispose.ts). load-results.ts ends the count of a load it drops.
      loadInUse(registration);
      const context = { paths: this.paths, pluginDir: plugin.dir, env: this.env, ...(plugin.source === "native" && this.options.services !== undefined ? { services: this.options.services } : {}) };
      try {
        return { snapshot, loaded: await instantiatePlugin(plugin, registration, ownValue(config.plugins, plugin.name)?.config, context, this.options.loadTimeoutMs, guard) };
      } catch (error) {
        loadEnded(registration);
        throw error;
      }
    });
    const collected = await collectInOrder(plugins, enabled, outcomes, (loaded) => this.loadedPlugins.push(loaded));
    const enabledNames = Object.entries(config.plugins ?? {}).flatMap(([name, settings]) => (settings.enabled === true ? [name] : []));
    return { ...collected, refused: [...collected.refused, ...enabledButMissing(enabledNames, plugins.map((plugin) => plugin.name), errors, this.paths.configFile)] };
  }

  /** A user plugin's steps are watched (and told apart by the folder its private copy runs from); a native plugin's only shown as progress. */
  private watchFor(snapshot: PluginSnapshot, watch: LoadWatch): LoadWatch {
    if (snapshot.plugin.source === "native") return { ...(watch.progress === undefined ? {} : { progress: watch.progress }), ...(watch.warn === undefined ? {} : { warn: watch.warn }), ...(watch.clock === undefined ? {} : { clock: watch.clock }) };
    return { ...watch, code: join(this.paths.pluginCodeDir, snapshot.hash) };
  }

  /** Call every loaded plugin's dispose; all are attempted even when one fails. */
  async dispose(): Promise<void> {
    const loaded = this.loadedPlugins;
    this.loadedPlugins = [];
    for (const plugin of loaded) loadEnded(plugin.registration);
    const outcomes = await Promise.allSettled(loaded.map((plugin) => plugin.registration.dispose?.()));
    const failed = outcomes.flatMap((outcome, index) => (outcome.status === "rejected" ? [{ plugin: loaded[index]?.name, reason: outcome.reason as unknown }] : []));
    if (failed.length > 0) {
      throw new PluginError("PLUGIN_DISPOSE_FAILED", `disposing ${failed.length === 1 ? "plugin" : "plugins"} ${failed.map((f) => f.plugin).join(", ")} failed`, {
        data: { plugins: failed.map((f) => f.plugin) },
        cause: new AggregateError(failed.map((f) => f.reason)),
      });
    }
  }

  private async requireApproval(plugin: DiscoveredPlugin): Promise<PluginSnapshot> {
    const [snapshot, record] = await Promise.all([this.snapshot(plugin), this.store.get(plugin.name)]);
    const status = approvalStatus(record, snapshot.hash);
    if (status === "none") {
      throw new PluginError("PLUGIN_NOT_APPROVED", `plugin ${plugin.name} is not approved; review \`mcpvm plugin audit ${plugin.name}\`, then run \`${approveCommand(plugin.name)}\``, {
        data: { plugin: plugin.name },
      });
    }
    if (status === "stale") {
      const own = snapshot.audit.files.filter((file) => !file.path.startsWith("node_modules/")).map((file) => file.path);
      const packages = snapshot.audit.files.length - own.length;
      const changed = [...own, ...(packages > 0 ? [`node_modules (${packages} files)`] : [])].join(", ");
      throw new PluginError("PLUGIN_APPROVAL_STALE", `plugin ${plugin.name} changed since it was approved (plugin.json or one of: ${changed}); review \`mcpvm plugin audit ${plugin.name}\`, then run \`${approveCommand(plugin.name)}\``, {
        data: { plugin: plugin.name },
      });
    }
    if (snapshot.audit.blocked) {
      throw new PluginError("PLUGIN_AUDIT_BLOCKED", `plugin ${plugin.name} now has blocking audit findings; see \`mcpvm plugin audit ${plugin.name}\``, { data: { plugin: plugin.name } });
    }
    return snapshot;
  }

  /**
   * Import the registration of a plugin whose approval matched `snapshot`. A user plugin is imported
   * from a private copy of the bytes that were hashed, so a file changed after the check never runs;
   * a native plugin runs from mcpvm's own package, which is as trusted as the code importing it.
   */
  private async importApproved(snapshot: PluginSnapshot, watch: LoadWatch): Promise<PluginRegistration> {
    const { plugin } = snapshot;
    if (plugin.source === "native") return importRegistration(plugin, this.importer, plugin.entryFile, this.options.loadTimeoutMs, watch);
    let entry: string;
    try {
      entry = await privateEntryFile(this.paths.pluginCodeDir, snapshot);
    } catch (cause) {
      throw new PluginError("PLUGIN_LOAD_FAILED", `plugin ${plugin.name}: writing its private copy under ${this.paths.pluginCodeDir} failed: ${errorMessage(cause)}; check that folder's permissions and free space`, {
        data: { plugin: plugin.name },
        cause,
      });
    }
    return importRegistration(plugin, this.importer, entry, this.options.loadTimeoutMs, watch);
  }

  private async find(name: string): Promise<DiscoveredPlugin> {
    const { plugins, errors } = await this.discover();
    const plugin = plugins.find((candidate) => candidate.name === name);
    if (plugin) return plugin;
    const problem = errors.find((error) => error.data?.plugin === name);
    if (problem) throw problem;
    throw new PluginError("PLUGIN_NOT_FOUND", `no plugin named "${name}" (looked in ${join(this.root, "plugins")} and ${this.paths.userPluginsDir}); \`mcpvm plugin list\` shows them`, {
      data: { plugin: name },
    });
  }

  private async snapshot(plugin: DiscoveredPlugin): Promise<PluginSnapshot> {
    return snapshotPlugin(plugin, plugin.source === "native" ? await this.trustedPackages() : new Set(), this.scans);
  }

  private async trustedPackages(): Promise<ReadonlySet<string>> {
    if (this.trusted === undefined) {
      const pkg = JSON.parse(await readFile(join(this.root, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
      this.trusted = new Set(Object.keys(pkg.dependencies ?? {}));
    }
    return this.trusted;
  }

  private async settings(name: string): Promise<PluginSettings | undefined> {
    return ownValue((await loadConfigFile(this.paths.configFile)).plugins, name);
  }

  private async setEnabled(name: string, enabled: boolean): Promise<void> {
    await updateConfigFile(this.paths.configFile, (file) => {
      file.plugins = { ...file.plugins, [name]: { ...file.plugins?.[name], enabled } };
    });
  }
}
