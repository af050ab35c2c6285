import type { HostModulePlan } from "../plugin-system/plan.js";
import { isLazyHostModule, moduleUnavailability, ModuleUnavailableError, rewordUnavailable, type HostModule, type HostModules, type LazyHostModule } from "../sandbox/types.js";

type LoadContext = Parameters<LazyHostModule["load"]>[0];

/** What a run hands the engine: its modules and the guest's `tools` table (undefined: no `tools` global). */
export interface RunModuleTable {
  readonly modules: HostModules;
  readonly toolsGlobal: Readonly<Record<string, string>> | undefined;
}

export interface DeferredPluginsOptions {
  readonly plan: HostModulePlan;
  /** config.json `mcpServers` as read (validated when the mcp plugin loads). */
  readonly mcpServers: Readonly<Record<string, unknown>> | undefined;
  /** Loads every enabled plugin (once; PluginManager.loadHostModules with all its checks) and gives the run's table of the loaded plugins. */
  readonly load: () => Promise<RunModuleTable>;
  /** Masks host text the guest reads (the redactor, host paths). */
  readonly reword: (text: string) => string;
}

/**
 * A run's modules without loading any plugin: each enabled plugin's modules as plugin.json lists them,
 * lazy, and the mcp plugin's `host:mcp-<server>` modules and `tools` table from config.json's server
 * names. The first require of any of them loads the plugins as a run always did (approval and hash
 * checked right before each import, its config validated, `mcpServers` validated), then hands over
 * the loaded plugin's own module, or the error that refused it. So `mcpvm run` of a script that uses
 * no plugin imports, hashes and validates none (the main thread's largest cost after Node's start).
 * Undefined when the listing cannot match what loading would give: a plugin whose module names are
 * known only once it loads (a user plugin's modulePrefixes), or server names the mcp plugin would
 * refuse; the run then loads the plugins first, as before.
 */
export async function deferredRunModules(options: DeferredPluginsOptions): Promise<RunModuleTable | undefined> {
  const { plan, reword } = options;
  const modules: Record<string, HostModules[string]> = rewordUnavailable(plan.unavailable, reword);
  const fromLoad = async (name: string, context: LoadContext): Promise<HostModule> => {
    const loaded = (await options.load()).modules;
    const entry = entryFor(loaded, name);
    if (entry === undefined) {
      throw new ModuleUnavailableError("PLUGIN_MODULE_GONE", `host:${name}: its plugin no longer provides it (plugin.json changed while this run started); run the script again`);
    }
    const unavailable = moduleUnavailability(entry);
    if (unavailable !== undefined) throw new ModuleUnavailableError(unavailable.code, `host:${name}: ${unavailable.message}`);
    return isLazyHostModule(entry) ? entry.load(context) : entry;
  };
  let toolsGlobal: Readonly<Record<string, string>> | undefined;
  for (const plugin of plan.enabled) {
    for (const { name } of plugin.manifest.hostModules) modules[name] = { lazy: true, load: (context: LoadContext) => fromLoad(name, context) } satisfies LazyHostModule;
    if (plugin.manifest.modulePrefixes.length === 0) continue;
    if (plugin.source !== "native" || plugin.name !== "mcp" || plugin.manifest.modulePrefixes.join() !== "mcp-") return undefined;
    const servers = listedServers(options.mcpServers);
    if (servers === undefined) return undefined;
    // Loaded only with the mcp plugin on: the same table builders the plugin's load uses (./mcp-setup.ts).
    const { mcpModuleTable, toolsGlobalTable } = await import("./mcp-listing.js");
    const names = Object.keys(servers).sort();
    try {
      toolsGlobal = toolsGlobalTable(names);
    } catch {
      return undefined; // a name that cannot key the `tools` global refuses the mcp plugin at load
    }
    Object.assign(modules, mcpModuleTable(servers, (server, context) => fromLoad(`mcp-${server}`, context), reword));
  }
  return { modules, toolsGlobal };
}

/** A run's entry for `name`: its own, or a plugin's `<prefix>*` entry covering it (see HostModules). */
function entryFor(modules: HostModules, name: string): HostModules[string] | undefined {
  if (Object.hasOwn(modules, name)) return modules[name];
  const prefix = Object.keys(modules).find((key) => key.endsWith("*") && name.startsWith(key.slice(0, -1)));
  return prefix === undefined ? undefined : modules[prefix];
}

/** Each server's `enabled` as written, or undefined when `mcpServers` is not an object of objects (its validation then refuses the mcp plugin). */
function listedServers(raw: Readonly<Record<string, unknown>> | undefined): Record<string, { enabled?: boolean }> | undefined {
  const servers: Record<string, { enabled?: boolean }> = {};
  for (const [name, entry] of Object.entries(raw ?? {})) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
    servers[name] = { enabled: (entry as { enabled?: unknown }).enabled !== false };
  }
  return servers;
}

