import type { PluginSettings } from "../config/config-file.js";
import type { RiskLevel } from "./audit/rules.js";
import type { ApprovalRecord } from "./approval/store.js";
import type { PluginSource } from "./discovery.js";
import type { Capability } from "./manifest.js";
import type { PluginSnapshot } from "./snapshot.js";
import { didYouMean } from "../util/suggest.js";
import { PluginError } from "./errors.js";

/**
 * discovered -> audited -> approved -> enabled | disabled. Discovery yields a DiscoveredPlugin (its
 * manifest loaded); the manager audits every plugin it reports on, so a reported state starts at
 * "audited". "approved" means a stored approval whose hash matches the files on disk now;
 * enabled/disabled is the user's switch in config.json, which only counts while the approval is valid.
 */
export type PluginState = "audited" | "approved" | "enabled" | "disabled";

/** none: never approved (or revoked); stale: approved, but a covered file changed since. */
export type ApprovalStatus = "none" | "valid" | "stale";

export function approvalStatus(record: ApprovalRecord | undefined, currentHash: string): ApprovalStatus {
  if (record === undefined) return "none";
  return record.hash === currentHash ? "valid" : "stale";
}

export function pluginState(approval: ApprovalStatus, settings: PluginSettings | undefined): PluginState {
  if (approval !== "valid") return "audited";
  if (settings?.enabled === true) return "enabled";
  if (settings?.enabled === false) return "disabled";
  return "approved";
}

export interface PluginStatus {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly source: PluginSource;
  readonly state: PluginState;
  readonly approval: ApprovalStatus;
  /** The config.json switch; a plugin is only loaded when this is true AND the approval is valid. */
  readonly enabled: boolean;
  readonly capabilities: readonly Capability[];
  readonly modules: readonly string[];
  readonly highestRisk: RiskLevel | null;
  readonly blocked: boolean;
}

export function pluginStatus(snapshot: PluginSnapshot, record: ApprovalRecord | undefined, settings: PluginSettings | undefined): PluginStatus {
  const { plugin, audit } = snapshot;
  const approval = approvalStatus(record, snapshot.hash);
  return {
    name: plugin.name,
    version: plugin.manifest.version,
    description: plugin.manifest.description,
    source: plugin.source,
    state: pluginState(approval, settings),
    approval,
    enabled: settings?.enabled === true,
    capabilities: plugin.manifest.capabilities,
    modules: [...plugin.manifest.hostModules.map((module) => module.name), ...plugin.manifest.modulePrefixes.map((prefix) => `${prefix}*`)],
    highestRisk: audit.highestRisk,
    blocked: audit.blocked,
  };
}

/**
 * Plugins config.json enables that cannot load for a reason discovery found: a folder that became
 * unusable (its own error, e.g. plugin.json no longer valid), or a name that is no plugin at all (a
 * typo, a deleted folder). A run reports these beside the other refusals; without them guest code
 * only met "Unknown host module".
 */
export function enabledButMissing(
  enabled: readonly string[],
  found: readonly string[],
  errors: readonly PluginError[],
  configFile: string,
): { plugin: string; error: PluginError }[] {
  return enabled
    .filter((name) => !found.includes(name))
    .map((name) => {
      const problem = errors.find((error) => error.data?.plugin === name);
      if (problem !== undefined) return { plugin: name, error: problem };
      const hint = didYouMean(name, found);
      const message = `${configFile} enables plugin "${name}", but there is no plugin of that name${hint === "" ? "." : hint} Fix the name or remove plugins.${name} (\`mcpvm plugin list\` shows the plugins).`;
      return { plugin: name, error: new PluginError("PLUGIN_NOT_FOUND", message, { data: { plugin: name } }) };
    });
}
