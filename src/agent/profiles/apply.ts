import { join } from "node:path";
import { loadConfigFile, updateConfigFile } from "../../config/config-file.js";
import { withFileLock } from "../../util/file-lock.js";
import { PluginError, type PluginManager } from "../../plugin-system/index.js";
import { resolveLimits } from "../../sandbox/limits.js";
import type { RunLimits } from "../../sandbox/types.js";
import { availableProfiles, findProfiles } from "./catalog.js";
import { intendedState, overrideEnv, profileStateStore, restoreEnv } from "./env-state.js";
import { ProfileError } from "./schema.js";
import { stackProfiles } from "./stack.js";
import { counted } from "../../util/counted.js";

/** What applying needs from the host: where config lives, the plugin switches, and a reload. */
export interface ProfileTarget {
  readonly configFile: string;
  readonly home: string;
  readonly plugins: Pick<PluginManager, "list" | "enable" | "disable">;
  reload(): Promise<void>;
}

export interface ApplyReport {
  readonly active: readonly string[];
  readonly limits: RunLimits;
  readonly enabledServers: readonly string[];
  readonly disabledServers: readonly string[];
  readonly envOverrides: readonly string[];
  readonly pluginsEnabled: readonly string[];
  readonly pluginsDisabled: readonly string[];
  /** Plugins a profile asks for that could not be enabled (not approved, not found), with why. */
  readonly pluginsRefused: readonly { readonly plugin: string; readonly code: string; readonly message: string }[];
}

/**
 * Writes the stacked profiles into config.json (server switches, env overrides, limits,
 * `activeProfiles`), sets plugin switches, then reloads the host so the next run uses them.
 * Nothing is written when a profile is unknown, names an unconfigured server, or has invalid limits.
 */
export async function applyProfiles(target: ProfileTarget, names: readonly string[]): Promise<ApplyReport> {
  const config = await loadConfigFile(target.configFile);
  const stacked = stackProfiles(findProfiles(names, availableProfiles(config, target.configFile)));
  const configured = Object.keys(config.mcpServers ?? {});
  const missing = [...stacked.mcpServers, ...Object.keys(stacked.env)].filter((s) => !configured.includes(s));
  if (missing.length > 0) {
    throw new ProfileError("PROFILE_SERVER_UNKNOWN", `${names.length === 1 ? "Profile" : "Profiles"} ${names.join(", ")} name ${counted(new Set(missing).size, "MCP server")} that ${new Set(missing).size === 1 ? "is" : "are"} not configured: ${[...new Set(missing)].join(", ")}. Add them first (\`mcpvm mcp add\`).`, {
      data: { servers: missing },
    });
  }
  const limits = resolveLimits(stacked.limits);
  // One apply at a time per home, and crash-safe: what overrides replace is recorded before
  // config.json changes and settled after. Read outside a lock, two applies at once each restored
  // from a state the other then replaced; a crash between the two files lost a server's own env.
  await withFileLock(join(target.home, "profile-apply"), async () => {
    const states = profileStateStore(target.home);
    const previous = await states.read();
    const preview = structuredClone(((await loadConfigFile(target.configFile)).mcpServers ?? {}) as Record<string, Record<string, unknown>>);
    restoreEnv(preview, previous);
    const intended = intendedState(previous, overrideEnv(preview, stacked.env));
    await states.update((draft) => {
      draft.env = intended.env;
    });
    let next = previous;
    await updateConfigFile(target.configFile, (file) => {
      const servers = (file.mcpServers ?? {}) as Record<string, Record<string, unknown>>;
      restoreEnv(servers, previous);
      next = overrideEnv(servers, stacked.env);
      for (const [name, entry] of Object.entries(servers)) entry.enabled = stacked.mcpServers.includes(name);
      if (file.mcpServers !== undefined) file.mcpServers = servers;
      if (Object.keys(stacked.limits).length === 0) delete file.limits;
      else file.limits = { ...stacked.limits };
      file.activeProfiles = [...stacked.names];
    });
    await states.update((draft) => {
      draft.env = next.env;
    });
  });
  const plugins = await setPlugins(target, stacked.plugins);
  await target.reload();
  return {
    active: stacked.names,
    limits,
    enabledServers: configured.filter((s) => stacked.mcpServers.includes(s)),
    disabledServers: configured.filter((s) => !stacked.mcpServers.includes(s)),
    envOverrides: Object.keys(stacked.env),
    ...plugins,
  };
}

async function setPlugins(target: ProfileTarget, wanted: readonly string[] | undefined): Promise<Pick<ApplyReport, "pluginsEnabled" | "pluginsDisabled" | "pluginsRefused">> {
  const result = { pluginsEnabled: [] as string[], pluginsDisabled: [] as string[], pluginsRefused: [] as { plugin: string; code: string; message: string }[] };
  if (wanted === undefined) return result;
  const { plugins } = await target.plugins.list();
  for (const name of wanted) {
    const status = plugins.find((p) => p.name === name);
    if (status === undefined) {
      result.pluginsRefused.push({ plugin: name, code: "PLUGIN_NOT_FOUND", message: `no plugin named "${name}"` });
      continue;
    }
    if (status.enabled && status.approval === "valid") continue;
    try {
      await target.plugins.enable(name);
      result.pluginsEnabled.push(name);
    } catch (error) {
      if (!(error instanceof PluginError)) throw error;
      result.pluginsRefused.push({ plugin: name, code: error.code, message: error.message });
    }
  }
  for (const status of plugins) {
    if (status.enabled && !wanted.includes(status.name)) {
      await target.plugins.disable(status.name);
      result.pluginsDisabled.push(status.name);
    }
  }
  return result;
}
