import { loadConfigFile, type ConfigFile } from "../../config/config-file.js";
import type { ConfigPaths } from "../../config/paths.js";
import { McpApprovalStore } from "../../mcp/approval/index.js";
import { DEFAULT_NATIVE_PLUGIN_NAMES, parseMcpServerEntry, parseMcpServers, type McpConfigContext, type McpServers } from "../../mcp/config/index.js";
import { ServerStatusStore } from "../../mcp/service/server-status.js";
import { PluginManager, type PluginStatus } from "../../plugin-system/index.js";
import { describeZodIssues } from "../../util/zod-issues.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { mcpPluginConfigSchema } from "../../../plugins/mcp/config.js";
import { checkHomeWritable, checkStateFiles } from "./files.js";
import { problem, type Problem } from "./problem.js";
import { checkServers, configIssues, type ServerCheck } from "./servers.js";
import { checkToolsets } from "./toolsets.js";
import { configWithoutBrokenSections } from "./partial-config.js";

export { problem, errors, type Problem, type ProblemKind } from "./problem.js";
export type { ServerCheck } from "./servers.js";
export { connectCheck, type ConnectResult } from "./connect-check.js";
export { checkPluginLoads } from "./plugins.js";
export { staleToolsets, staleToolsetFix, type StaleToolset } from "./toolsets.js";
export { bannerLines, mcpBanner } from "./banner.js";

export type McpPluginState = "on" | "off" | "broken";

export interface Diagnosis {
  readonly config: ConfigFile | undefined;
  readonly mcp: { readonly state: McpPluginState; readonly detail: string };
  readonly plugins: readonly PluginStatus[];
  readonly servers: readonly ServerCheck[];
  /** Errors first, in the order found; then warnings. */
  readonly problems: readonly Problem[];
}

export interface DiagnoseOptions {
  readonly paths: ConfigPaths;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The host's plugin manager when one is open; else one is made for the check. */
  readonly plugins?: PluginManager;
}

const ENABLE_MCP = "mcpvm plugin approve mcp && mcpvm plugin enable mcp";

async function mcpPluginState(plugins: PluginManager, config: ConfigFile, serverCount: number, problems: Problem[]): Promise<{ state: McpPluginState; detail: string; list: PluginStatus[] }> {
  let list: PluginStatus[];
  try {
    const listed = await plugins.list();
    list = listed.plugins;
    for (const error of listed.errors) problems.push(problem("warning", "config", "plugins", error.message, undefined, error.code));
  } catch (error) {
    // A corrupt approved-plugins.json is reported by checkStateFiles already.
    return { state: "broken", detail: `plugins cannot be listed: ${errorMessage(error)}`, list: [] };
  }
  const mcp = list.find((p) => p.name === "mcp");
  const servers = serverCount === 0 ? "" : `; ${serverCount === 1 ? "the configured server does" : `the ${serverCount} configured servers do`} not start`;
  const off = (detail: string, next: string) => {
    if (serverCount > 0) problems.push(problem("error", "approval", "mcp plugin", `MCP is off: ${detail}${servers}`, next, "MCP_PLUGIN_NOT_ENABLED"));
    return { state: "off" as const, detail, list };
  };
  if (mcp === undefined) return off("the mcp plugin is missing from this installation", "reinstall mcpvm");
  if (mcp.approval === "none") return off("the mcp plugin is not approved", ENABLE_MCP);
  if (mcp.approval === "stale") return off("the mcp plugin changed since it was approved", ENABLE_MCP);
  if (!mcp.enabled) return off("the mcp plugin is approved but not enabled", "mcpvm plugin enable mcp");
  const settings = mcpPluginConfigSchema.safeParse(config.plugins?.mcp?.config ?? {});
  if (!settings.success) {
    const message = describeZodIssues("config.json plugins.mcp.config", settings.error.issues);
    problems.push(problem("error", "config", "config.json", message, "fix plugins.mcp.config in config.json", "PLUGIN_CONFIG_INVALID"));
    return { state: "broken", detail: "plugins.mcp.config is not valid", list };
  }
  return { state: "on", detail: "enabled", list };
}

/**
 * Everything that can break, checked without starting a server: config.json and the state files,
 * the mcp plugin, every server's definition, approval, command, variables and inputs, and the last
 * recorded connect results. Shared by `mcpvm doctor`, `mcp list` and the REPL banner.
 */
export async function diagnoseHome(options: DiagnoseOptions): Promise<Diagnosis> {
  const { paths, env } = options;
  const problems: Problem[] = [...(await checkHomeWritable(paths))];
  let config: ConfigFile | undefined;
  let envelopeBroken = false;
  try {
    config = await loadConfigFile(paths.configFile);
  } catch (error) {
    const partial = await configWithoutBrokenSections(paths.configFile, error);
    const message = partial?.message ?? errorMessage(error);
    const next = partial === undefined ? "" : " (until then no command reads it; its other sections are checked below)";
    problems.push(problem("error", "config", "config.json", message, `fix ${paths.configFile} in an editor${next}, then run \`mcpvm doctor\` again`, isMcpvmError(error) ? error.code : undefined));
    config = partial?.config;
    envelopeBroken = partial !== undefined;
  }
  problems.push(...(await checkStateFiles(paths)));
  if (config === undefined) return { config, mcp: { state: "broken", detail: "config.json cannot be read" }, plugins: [], servers: [], problems: ordered(problems) };

  const context = { file: paths.configFile, nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };
  let servers: McpServers;
  let serversValid = true;
  try {
    servers = parseMcpServers(config.mcpServers ?? {}, context);
  } catch (error) {
    // mcp remove, too, waits for the envelope to be fixed: it rewrites the file.
    problems.push(...configIssues(error, paths.configFile, !envelopeBroken));
    serversValid = false;
    // The mcp plugin does not load at all now; the entries that are fine are still checked.
    servers = validEntries(config.mcpServers, context);
  }
  const plugins = options.plugins ?? new PluginManager({ paths, env });
  const mcp = await mcpPluginState(plugins, config, Object.keys(config.mcpServers ?? {}).length, problems);
  const recorded = await new ServerStatusStore(paths.serverStatusFile, () => undefined).readAll();
  const checked = await checkServers(servers, { env, defaultCwd: paths.home, configFile: paths.configFile, approvals: new McpApprovalStore(paths.approvedMcpFile), recorded });
  problems.push(...checked.problems);
  problems.push(...(await checkToolsets(paths.toolsetsFile, Object.keys(config.mcpServers ?? {}))));
  const state = serversValid || mcp.state === "off" ? mcp : { state: "broken" as const, detail: "mcpServers in config.json is not valid" };
  return { config, mcp: { state: state.state, detail: state.detail }, plugins: mcp.list, servers: checked.checks, problems: ordered(problems) };
}

function validEntries(raw: unknown, context: McpConfigContext): McpServers {
  const servers: McpServers = {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return servers;
  for (const [name, entry] of Object.entries(raw)) {
    try {
      servers[name] = parseMcpServerEntry(name, entry, context);
    } catch {
      // Reported with the whole section's issues.
    }
  }
  return servers;
}

function ordered(problems: readonly Problem[]): Problem[] {
  return [...problems.filter((p) => p.severity === "error"), ...problems.filter((p) => p.severity === "warning")];
}
