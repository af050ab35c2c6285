import type { HostModules, LazyHostModule } from "../sandbox/types.js";
import type { DiscoveredPlugin } from "./discovery.js";
import { PluginError } from "./errors.js";
import { disposeQuietly, unavailableModulesOf, type LoadedPlugin } from "./host-loader.js";
import { loadEnded } from "./late-dispose.js";
import type { Settled } from "./side-by-side.js";
import type { PluginSnapshot } from "./snapshot.js";

export interface HostModuleInfo {
  readonly plugin: string;
  readonly description: string;
  readonly functions: Readonly<Record<string, string>>;
}

export interface LoadedHostModules {
  readonly modules: HostModules;
  /** plugin name -> the ambient `declare module "host:…"` text from its declarations file. */
  readonly declarations: Readonly<Record<string, string>>;
  /** plugin name -> its hints for the model. */
  readonly hints: Readonly<Record<string, readonly string[]>>;
  /** module name -> what plugin.json says about it (modules listed in hostModules). */
  readonly moduleInfo: Readonly<Record<string, HostModuleInfo>>;
  readonly loaded: readonly string[];
  /** Enabled plugins that were not loaded, each with the reason; the others still load. */
  readonly refused: readonly { readonly plugin: string; readonly error: PluginError }[];
  /**
   * The modules of plugins that are off or failed to load, with why: a run lists them beside
   * `modules`, so guest code that requires one learns the reason, not "Unknown host module".
   */
  readonly unavailable: HostModules;
}

/** One plugin loaded: what its approval matched and what it created. */
export interface PluginLoad {
  readonly snapshot: PluginSnapshot;
  readonly loaded: LoadedPlugin;
}

/**
 * The outcomes of plugins that loaded side by side, taken in discovery order, as when they loaded one
 * after another: the first plugin keeps a module two provide (the other is refused and disposed), and
 * refusals keep that order. `outcomes[i]` belongs to `enabled[i]`; `keep` is told of each plugin taken.
 * A failure that is not a PluginError is thrown, after the plugins still loading are set to be disposed.
 * A load dropped here (refused or set to be disposed) ends its count of loads in use (late-dispose.ts).
 */
export async function collectInOrder(plugins: readonly DiscoveredPlugin[], enabled: readonly DiscoveredPlugin[], outcomes: readonly Promise<Settled<PluginLoad>>[], keep: (loaded: LoadedPlugin) => void): Promise<LoadedHostModules> {
  const modules: Record<string, HostModules[string]> = {};
  const owner = new Map<string, string>();
  const result = { declarations: {} as Record<string, string>, hints: {} as Record<string, readonly string[]>, moduleInfo: {} as Record<string, HostModuleInfo>, loaded: [] as string[], refused: [] as { plugin: string; error: PluginError }[], unavailable: {} as Record<string, LazyHostModule> };
  for (const plugin of plugins) {
    const at = enabled.indexOf(plugin);
    const outcome = at < 0 ? undefined : await outcomes[at];
    if (outcome === undefined) {
      Object.assign(result.unavailable, unavailableModulesOf(plugin));
      continue;
    }
    try {
      if (!outcome.ok) throw outcome.error;
      const { snapshot, loaded } = outcome.value;
      const clash = Object.keys(loaded.modules).find((module) => owner.has(module));
      if (clash !== undefined) {
        loadEnded(loaded.registration);
        await disposeQuietly(loaded.registration);
        throw new PluginError("PLUGIN_MODULE_CONFLICT", `plugin ${plugin.name}: module "${clash}" is already provided by plugin ${owner.get(clash)}; disable one of them`, { data: { plugin: plugin.name } });
      }
      keep(loaded);
      for (const [module, functions] of Object.entries(loaded.modules)) {
        modules[module] = functions;
        owner.set(module, plugin.name);
      }
      for (const entry of plugin.manifest.hostModules) result.moduleInfo[entry.name] = { plugin: plugin.name, description: entry.description, functions: entry.functions };
      if (snapshot.declarationsText !== undefined) result.declarations[plugin.name] = snapshot.declarationsText;
      result.hints[plugin.name] = plugin.manifest.hints;
      result.loaded.push(plugin.name);
    } catch (error) {
      if (!(error instanceof PluginError)) {
        // The plugins after this one may have loaded already; nothing will use them.
        for (const later of outcomes.slice(at + 1)) {
          void later.then((settled) => {
            if (!settled.ok) return undefined;
            loadEnded(settled.value.loaded.registration);
            return disposeQuietly(settled.value.loaded.registration);
          });
        }
        throw error;
      }
      result.refused.push({ plugin: plugin.name, error });
      Object.assign(result.unavailable, unavailableModulesOf(plugin, error));
    }
  }
  return { modules, ...result };
}
