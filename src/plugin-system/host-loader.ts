import { pathToFileURL } from "node:url";
import { z } from "zod";
import { describeZodIssues, formatJsonPath } from "../config/config-file.js";
import { isLazyHostModule, moduleUnavailability, unavailableHostModule, type HostFunction, type HostModule, type HostModules, type LazyHostModule } from "../sandbox/types.js";
import { errorMessage } from "../util/errors.js";
import { withKeySuggestions } from "../util/zod-key-suggestions.js";
import type { DiscoveredPlugin } from "./discovery.js";
import { PluginError } from "./errors.js";
import { PLUGIN_LOAD_TIMEOUT_MS, PluginLoadTimeoutError, withinLoadDeadline, type LoadWatch } from "./load-deadline.js";
import { disposeLate, lateRegistration, lateRegistrationDispose } from "./late-dispose.js";
import { manifestDeclaresModule } from "./manifest.js";
import type { PluginContext, PluginRegistration } from "./types.js";

/** Loads plugin code (injected so a caller can add instrumentation; the default is a plain dynamic import). */
export type ModuleImporter = (url: string) => Promise<unknown>;

export const defaultImporter: ModuleImporter = (url) => import(url);

const isFunction = (value: unknown): boolean => typeof value === "function";

/**
 * The runtime shape of a PluginRegistration; used only to check, the original object is kept (methods
 * keep `this`). Built when the first plugin loads (z.lazy), not by a process that loads none.
 */
const registrationShape = z.lazy(() =>
  z.object({
    name: z.string(),
    declaredModules: z.array(z.string()),
    declaredModulePrefixes: z.array(z.string()).optional(),
    configSchema: z
      .custom((value) => typeof value === "object" && value !== null && isFunction((value as { safeParse?: unknown }).safeParse), "must be a zod schema (or left out: the plugin then takes no config)")
      .optional(),
    createHostFunctions: z.custom(isFunction, "must be a function"),
    dispose: z.custom(isFunction, "must be a function").optional(),
  }),
);

export interface LoadedPlugin {
  readonly name: string;
  readonly registration: PluginRegistration;
  readonly modules: HostModules;
}

/**
 * Import a plugin's entry and check that its default export is a registration for this plugin.
 * `entryFile`: where to import it from (a user plugin's private copy, private-copy.ts); errors name the plugin's own entry.
 */
export async function importRegistration(plugin: DiscoveredPlugin, importer: ModuleImporter, entryFile = plugin.entryFile, loadTimeoutMs = PLUGIN_LOAD_TIMEOUT_MS, watch: LoadWatch = {}): Promise<PluginRegistration> {
  let namespace: unknown;
  try {
    namespace = await withinLoadDeadline(plugin.name, `importing ${plugin.entryFile}`, loadTimeoutMs, () => importer(pathToFileURL(entryFile).href), watch, (late) => {
      // Given up on, then imported after all: its module code may have started something its dispose stops.
      if (late.ok) disposeLate(plugin.name, lateRegistration(late.value), lateRegistrationDispose(late.value), watch.warn);
    });
  } catch (cause) {
    if (cause instanceof PluginLoadTimeoutError) throw cause;
    throw new PluginError("PLUGIN_LOAD_FAILED", `plugin ${plugin.name}: importing ${plugin.entryFile} failed: ${errorMessage(cause)}. Reinstall or fix the plugin, or stop loading it: mcpvm plugin disable ${plugin.name}`, { data: { plugin: plugin.name }, cause });
  }
  const candidate = (namespace as { default?: unknown } | null)?.default;
  const shape = registrationShape.safeParse(candidate);
  if (!shape.success) {
    throw new PluginError("PLUGIN_REGISTRATION_INVALID", describeZodIssues(`plugin ${plugin.name}: the default export of ${plugin.entryFile}`, shape.error.issues), {
      data: { plugin: plugin.name },
    });
  }
  const registration = withConfigSchema(candidate as Partial<PluginRegistration> & Omit<PluginRegistration, "configSchema">);
  if (registration.name !== plugin.name) {
    throw new PluginError("PLUGIN_REGISTRATION_INVALID", `plugin ${plugin.name}: its registration is named "${registration.name}"; the names must match`, { data: { plugin: plugin.name } });
  }
  const manifest = plugin.manifest;
  const undeclared = [
    ...registration.declaredModules.filter((module) => !manifestDeclaresModule(manifest, module)),
    ...(registration.declaredModulePrefixes ?? []).filter((prefix) => !manifest.modulePrefixes.includes(prefix)).map((prefix) => `${prefix}*`),
  ];
  if (undeclared.length > 0) {
    throw new PluginError("PLUGIN_UNDECLARED_MODULE", `plugin ${plugin.name}: declares ${undeclared.map((m) => `"${m}"`).join(", ")} but plugin.json does not (add it to hostModules or modulePrefixes)`, {
      data: { plugin: plugin.name, modules: undeclared },
    });
  }
  return registration;
}

/** The config schema of a registration that has none: no keys (a user plugin cannot import zod, docs/PLUGINS.md). */
const NO_CONFIG = z.object({}).strict();

/**
 * A registration without `configSchema` takes no config. The default is put on an object whose
 * prototype is the plugin's own, so the plugin's methods keep reading their own properties via `this`.
 */
function withConfigSchema(registration: Partial<PluginRegistration> & Omit<PluginRegistration, "configSchema">): PluginRegistration {
  if (registration.configSchema !== undefined) return registration as PluginRegistration;
  return Object.create(registration, { configSchema: { value: NO_CONFIG, enumerable: true } }) as PluginRegistration;
}

/** Validate the plugin's config (config.json `plugins.<name>.config`) with its registration's schema. */
export function parsePluginConfig(name: string, registration: PluginRegistration, config: unknown, configFile: string): unknown {
  const parsed = registration.configSchema.safeParse(config ?? {});
  if (parsed.success) return parsed.data;
  // Suggestions are looked up in the plugin's schema before the path is prefixed with where it sits in config.json.
  const issues = withKeySuggestions(parsed.error.issues, registration.configSchema).map((issue) => ({ ...issue, path: ["plugins", name, "config", ...issue.path] }));
  throw new PluginError("PLUGIN_CONFIG_INVALID", `plugin ${name}: its config is not valid — ${describeZodIssues(configFile, issues)}`, {
    data: { plugin: name, issues: issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })) },
  });
}

function registrationDeclares(registration: PluginRegistration, module: string): boolean {
  return registration.declaredModules.includes(module) || (registration.declaredModulePrefixes ?? []).some((prefix) => module.startsWith(prefix));
}

type CheckCode = "PLUGIN_UNDECLARED_MODULE" | "PLUGIN_UNDECLARED_FUNCTION" | "PLUGIN_REGISTRATION_INVALID";

/** Check one module's functions against plugin.json (when it lists the module; prefix modules have no list). */
function checkFunctions(plugin: DiscoveredPlugin, module: string, functions: unknown): HostModule {
  const fail = (code: CheckCode, message: string): never => {
    throw new PluginError(code, `plugin ${plugin.name}: ${message}`, { data: { plugin: plugin.name, module } });
  };
  if (typeof functions !== "object" || functions === null) fail("PLUGIN_REGISTRATION_INVALID", `module "${module}" must be an object of functions`);
  const listed = plugin.manifest.hostModules.find((entry) => entry.name === module);
  const out: Record<string, HostFunction> = {};
  for (const [fn, implementation] of Object.entries(functions as Record<string, unknown>)) {
    if (typeof implementation !== "function") fail("PLUGIN_REGISTRATION_INVALID", `${module}.${fn} is not a function`);
    if (listed && !Object.hasOwn(listed.functions, fn)) fail("PLUGIN_UNDECLARED_FUNCTION", `function ${module}.${fn} is not listed in plugin.json hostModules; it was refused`);
    out[fn] = implementation as HostFunction;
  }
  return out;
}

/**
 * Refuse modules or functions a plugin did not declare (in both plugin.json and its registration).
 * A lazy module's functions are only known once it loads, so its `load` is wrapped to check them then.
 */
export function checkHostModules(plugin: DiscoveredPlugin, registration: PluginRegistration, modules: unknown): HostModules {
  if (typeof modules !== "object" || modules === null) {
    throw new PluginError("PLUGIN_REGISTRATION_INVALID", `plugin ${plugin.name}: createHostFunctions must return an object of modules`, { data: { plugin: plugin.name } });
  }
  const checked: Record<string, HostModules[string]> = {};
  for (const [module, value] of Object.entries(modules)) {
    const inManifest = manifestDeclaresModule(plugin.manifest, module);
    const inRegistration = registrationDeclares(registration, module);
    if (!inManifest || !inRegistration) {
      const missing = [inManifest ? undefined : "plugin.json", inRegistration ? undefined : "its registration's declaredModules"].filter((where) => where !== undefined).join(" and ");
      throw new PluginError("PLUGIN_UNDECLARED_MODULE", `plugin ${plugin.name}: module "${module}" is not declared in ${missing}; it was refused`, { data: { plugin: plugin.name, module } });
    }
    const unavailability = typeof value === "object" && value !== null ? moduleUnavailability(value as HostModules[string]) : undefined;
    if (unavailability !== undefined) {
      // A module the plugin knows it cannot offer (e.g. a disabled MCP server): its require says why.
      checked[module] = unavailableHostModule({ message: String(unavailability.message), code: String(unavailability.code) });
    } else if (typeof value === "object" && value !== null && isLazyHostModule(value as HostModules[string])) {
      const lazy = value as LazyHostModule;
      const wrapped: LazyHostModule = {
        lazy: true,
        load: async (context) => checkFunctions(plugin, module, await lazy.load(context)),
        ...(lazy.label === undefined ? {} : { label: lazy.label }),
      };
      checked[module] = wrapped;
    } else {
      checked[module] = checkFunctions(plugin, module, value);
    }
  }
  return checked;
}

export async function disposeQuietly(registration: PluginRegistration): Promise<void> {
  try {
    await registration.dispose?.();
  } catch {
    // The load error being reported matters more than a failure to clean up after it.
  }
}

/** Create a plugin's host functions from an already imported registration; disposes it if the result is refused. */
export async function instantiatePlugin(
  plugin: DiscoveredPlugin,
  registration: PluginRegistration,
  rawConfig: unknown,
  context: PluginContext,
  loadTimeoutMs = PLUGIN_LOAD_TIMEOUT_MS,
  watch: LoadWatch = {},
): Promise<LoadedPlugin> {
  const config = parsePluginConfig(plugin.name, registration, rawConfig, context.paths.configFile);
  let created: unknown;
  try {
    // The async wrapper turns a synchronous throw into a rejection, reported like any other.
    created = await withinLoadDeadline(plugin.name, "createHostFunctions", loadTimeoutMs, async () => registration.createHostFunctions(config, context), watch, () =>
      disposeLate(plugin.name, registration, registration.dispose === undefined ? undefined : () => registration.dispose?.(), watch.warn),
    );
  } catch (cause) {
    // Given up on: disposed once createHostFunctions settles (late-dispose.ts), not now, before it has started what it will start.
    if (cause instanceof PluginLoadTimeoutError) throw cause;
    await disposeQuietly(registration);
    throw new PluginError("PLUGIN_LOAD_FAILED", `plugin ${plugin.name}: createHostFunctions failed: ${errorMessage(cause)}. Check its config (mcpvm plugin config ${plugin.name}), or stop loading it: mcpvm plugin disable ${plugin.name}`, { data: { plugin: plugin.name }, cause });
  }
  try {
    return { name: plugin.name, registration, modules: checkHostModules(plugin, registration, created) };
  } catch (error) {
    await disposeQuietly(registration);
    throw error;
  }
}

/** What unavailableModulesOf needs of a plugin: its name and the module names its plugin.json lists. */
export interface ModuleNames {
  readonly name: string;
  readonly manifest: { readonly hostModules: readonly { readonly name: string }[]; readonly modulePrefixes: readonly string[] };
}

/**
 * What the modules of a plugin that is off or failed to load say when guest code requires them:
 * the load error, or the commands that turn it on, instead of "Unknown host module". A plugin's
 * modulePrefixes become `*` keys (see HostModules), so `host:mcp-memory` explains itself
 * while the mcp plugin is down. Without `error` the plugin is simply not enabled.
 */
export function unavailableModulesOf(plugin: ModuleNames, error?: PluginError): Record<string, LazyHostModule> {
  const name = plugin.name;
  const entry = unavailableHostModule(
    error === undefined
      ? { message: `plugin ${name} is not enabled; review it with \`mcpvm plugin audit ${name}\`, then run \`mcpvm plugin approve ${name} && mcpvm plugin enable ${name}\``, code: "PLUGIN_NOT_ENABLED" }
      : { message: `plugin ${name} did not load: ${error.message}${/`mcpvm plugin /.test(error.message) ? "" : ` (\`mcpvm plugin info ${name}\` shows its state)`}`, code: error.code },
  );
  const modules: Record<string, LazyHostModule> = {};
  for (const module of plugin.manifest.hostModules) modules[module.name] = entry;
  for (const prefix of plugin.manifest.modulePrefixes) modules[`${prefix}*`] = entry;
  return modules;
}
