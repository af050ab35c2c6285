import type { RunLimits } from "../../sandbox/types.js";
import type { NamedProfile } from "./schema.js";

export interface StackedProfile {
  readonly names: readonly string[];
  readonly limits: Partial<RunLimits>;
  /** Union of every applied profile's plugins; undefined when none of them lists plugins. */
  readonly plugins: readonly string[] | undefined;
  /** Union of servers, in the order they first appear. */
  readonly mcpServers: readonly string[];
  /** server -> env overrides; a later profile wins on the same key. */
  readonly env: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

const LIMIT_KEYS = ["cpuMs", "wallMs", "memoryBytes", "outputBytes", "toolCalls"] as const;

/**
 * Stacks profiles in the order given: servers and plugins are unions, and each limit is the
 * strictest (smallest) value any profile sets, unless a profile with `limitsMode: "override"`
 * sets it, in which case the last such profile's value holds.
 */
export function stackProfiles(profiles: readonly NamedProfile[]): StackedProfile {
  const limits: Partial<Record<(typeof LIMIT_KEYS)[number], number>> = {};
  const overridden = new Set<string>();
  const servers: string[] = [];
  let plugins: string[] | undefined;
  const env: Record<string, Record<string, string>> = {};
  for (const { profile } of profiles) {
    for (const key of LIMIT_KEYS) {
      const value = profile.limits?.[key];
      if (value === undefined) continue;
      if (profile.limitsMode === "override") {
        limits[key] = value;
        overridden.add(key);
      } else if (!overridden.has(key)) {
        limits[key] = Math.min(limits[key] ?? value, value);
      }
    }
    for (const server of profile.mcpServers) if (!servers.includes(server)) servers.push(server);
    if (profile.plugins !== undefined) {
      plugins ??= [];
      for (const plugin of profile.plugins) if (!plugins.includes(plugin)) plugins.push(plugin);
    }
    for (const [server, vars] of Object.entries(profile.env ?? {})) env[server] = { ...env[server], ...vars };
  }
  // MCP servers only run behind the mcp plugin, so a plugin list that names servers includes it.
  if (plugins !== undefined && servers.length > 0 && !plugins.includes("mcp")) plugins.push("mcp");
  return { names: profiles.map((p) => p.name), limits, plugins, mcpServers: servers, env };
}
