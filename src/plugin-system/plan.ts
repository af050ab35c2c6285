import type { ConfigFile } from "../config/config-file.js";
import type { LazyHostModule } from "../sandbox/types.js";
import type { DiscoveredPlugin, DiscoveryResult } from "./discovery.js";
import type { PluginError } from "./errors.js";
import { unavailableModulesOf } from "./host-loader.js";
import { enabledButMissing } from "./lifecycle.js";

/**
 * Which plugins a run would load, from discovery (plugin.json) and config.json alone: nothing is
 * hashed, approved, imported or configured. A run lists the enabled plugins' modules from this and
 * loads the plugins on the first require of one of them (src/host/deferred-plugins.ts), where
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

export function planHostModules(discovered: DiscoveryResult, config: ConfigFile, configFile: string): HostModulePlan {
  const settings = config.plugins ?? {};
  const isEnabled = (name: string) => Object.hasOwn(settings, name) && settings[name]?.enabled === true;
  const enabled: DiscoveredPlugin[] = [];
  const unavailable: Record<string, LazyHostModule> = {};
  for (const plugin of discovered.plugins) {
    if (isEnabled(plugin.name)) enabled.push(plugin);
    else Object.assign(unavailable, unavailableModulesOf(plugin));
  }
  const names = Object.keys(settings).filter(isEnabled);
  return { enabled, unavailable, refused: enabledButMissing(names, discovered.plugins.map((plugin) => plugin.name), discovered.errors, configFile) };
}
