import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConfigFile } from "../config/config-file.js";
import type { LazyHostModule } from "../sandbox/types.js";
import { parseJsonSafe } from "../util/json.js";
import type { DiscoveredPlugin, DiscoveryResult, SkippedPluginFolder } from "./discovery.js";
import type { PluginError } from "./errors.js";
import { unavailableModulesOf, type ModuleNames } from "./host-loader.js";
import { enabledButMissing } from "./lifecycle.js";
import { PLUGIN_NAME_PATTERN, RESERVED_MODULE_PREFIXES } from "./manifest.js";

/**
 * Which plugins a run would load, from config.json and plugin.json alone: nothing is hashed,
 * approved, imported or configured. A run lists the enabled plugins' modules from this and loads the
 * plugins on the first require of one of them (src/host/deferred-plugins.ts), where
 * PluginManager.loadHostModules makes every check as before.
 */
export interface HostModulePlan {
  /** Enabled in config.json and found; whether each may load is decided when it loads. */
  readonly enabled: readonly DiscoveredPlugin[];
  /** The modules of the plugins that are found but not enabled, saying how to enable them (as loadHostModules lists them). */
  readonly unavailable: Readonly<Record<string, LazyHostModule>>;
  /** Enabled plugins discovery already knows cannot load (a bad plugin.json, a name that is no plugin). */
  readonly refused: readonly { readonly plugin: string; readonly error: PluginError }[];
}

/** Whether config.json enables the plugin named `name`. */
export function enabledIn(config: ConfigFile): (name: string) => boolean {
  const settings = config.plugins ?? {};
  return (name) => Object.hasOwn(settings, name) && settings[name]?.enabled === true;
}

/**
 * `discovered`: discovery that inspected only the enabled folders (DiscoveryOptions.only = enabledIn):
 * the plugins that are off are only read for their module names, without validating their manifests.
 */
export async function planHostModules(discovered: DiscoveryResult, config: ConfigFile, configFile: string): Promise<HostModulePlan> {
  const isEnabled = enabledIn(config);
  const enabled = discovered.plugins.filter((plugin) => isEnabled(plugin.name));
  const unavailable: Record<string, LazyHostModule> = {};
  for (const plugin of discovered.plugins) if (!isEnabled(plugin.name)) Object.assign(unavailable, unavailableModulesOf(plugin));
  for (const names of await Promise.all((discovered.skipped ?? []).map(moduleNamesOf))) if (names !== undefined) Object.assign(unavailable, unavailableModulesOf(names));
  const names = Object.keys(config.plugins ?? {}).filter(isEnabled);
  return { enabled, unavailable, refused: enabledButMissing(names, discovered.plugins.map((plugin) => plugin.name), discovered.errors, configFile) };
}

const PREFIX_PATTERN = /^[a-z][a-z0-9-]*-$/;
const isModuleName = (name: unknown): name is string => typeof name === "string" && name.length <= 64 && PLUGIN_NAME_PATTERN.test(name) && name !== "constructor" && name !== "prototype";

/**
 * The module names a plugin that is off lists, read from its plugin.json without the manifest's
 * validation (only its "not enabled" message depends on them); undefined for a plugin.json that
 * discovery would refuse on these fields, whose modules are then not listed, as discovery lists none.
 */
async function moduleNamesOf(folder: SkippedPluginFolder): Promise<ModuleNames | undefined> {
  let manifest: { name?: unknown; hostModules?: unknown; modulePrefixes?: unknown; native?: unknown };
  try {
    manifest = parseJsonSafe(await readFile(join(folder.dir, "plugin.json"), "utf8")) as typeof manifest;
  } catch {
    return undefined;
  }
  if (typeof manifest !== "object" || manifest === null || manifest.name !== folder.folder) return undefined;
  const hostModules = manifest.hostModules ?? [];
  const prefixes = manifest.modulePrefixes ?? [];
  if (!Array.isArray(hostModules) || !Array.isArray(prefixes)) return undefined;
  const modules = hostModules.map((entry: unknown) => (typeof entry === "object" && entry !== null ? (entry as { name?: unknown }).name : undefined));
  if (!modules.every(isModuleName) || !prefixes.every((prefix: unknown) => typeof prefix === "string" && PREFIX_PATTERN.test(prefix))) return undefined;
  // What only mcpvm's own plugins may claim (discovery refuses a user plugin that does).
  const reserved = (name: string) => RESERVED_MODULE_PREFIXES.some((prefix) => name.startsWith(prefix));
  if (folder.source === "user" && (manifest.native !== undefined || [...modules, ...(prefixes as string[])].some(reserved))) return undefined;
  return { name: folder.folder, manifest: { hostModules: modules.map((name) => ({ name })), modulePrefixes: prefixes as string[] } };
}
