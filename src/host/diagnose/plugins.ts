import type { PluginManager } from "../../plugin-system/index.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { exitCodeFor } from "../../terminal/report-error.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { problem, type Problem, type ProblemKind } from "./problem.js";

/** What to run for a plugin a run would refuse, by its refusal's code. */
function nextFor(name: string, code: string): string {
  const disable = `mcpvm plugin disable ${name}`;
  if (code === "PLUGIN_LOAD_FAILED") return `fix the plugin or its config (mcpvm plugin config ${name}), or stop loading it: ${disable}`;
  if (code === "PLUGIN_NOT_APPROVED" || code === "PLUGIN_APPROVAL_STALE") return `mcpvm plugin audit ${name}, then mcpvm plugin approve ${name}; or ${disable}`;
  if (code === "PLUGIN_NOT_FOUND") return `fix the name or remove plugins.${name} in config.json (mcpvm plugin list shows the plugins)`;
  return `mcpvm plugin info ${name}, or ${disable}`;
}

/** The kind a refusal counts as: the exit code `mcpvm run` gives it when a script requires the plugin's module. */
function kindOf(error: unknown): ProblemKind {
  const exit = exitCodeFor(error);
  return exit === ExitCode.ApprovalRequired ? "approval" : exit === ExitCode.Unavailable ? "unavailable" : "config";
}

/**
 * Every enabled plugin, loaded as a run loads it (its code imported, its createHostFunctions called)
 * and then unloaded: `plugin list` shows "enabled" for a plugin whose code or config fails, and only
 * loading it tells. The mcp plugin is left out: it loads only inside a host that lends it the MCP
 * service, and its own state is checked apart (mcpPluginState). A config.json or approvals file that
 * cannot be read is reported by the file checks.
 */
export async function checkPluginLoads(manager: PluginManager): Promise<{ readonly loadErrors: ReadonlyMap<string, string>; readonly problems: Problem[] }> {
  const loadErrors = new Map<string, string>();
  const problems: Problem[] = [];
  let refused;
  try {
    refused = (await manager.loadHostModules()).refused;
  } catch {
    return { loadErrors, problems };
  }
  try {
    await manager.dispose();
  } catch (error) {
    problems.push(problem("warning", "unavailable", "plugins", `unloading the plugins after the check failed: ${errorMessage(error)}`, undefined, isMcpvmError(error) ? error.code : undefined));
  }
  for (const { plugin, error } of refused) {
    if (plugin === "mcp") continue;
    loadErrors.set(plugin, error.message);
    // The subject names the plugin already; most refusals start with it too.
    const message = error.message.startsWith(`plugin ${plugin}: `) ? error.message.slice(`plugin ${plugin}: `.length) : error.message;
    problems.push(problem("error", kindOf(error), `plugin ${plugin}`, message, nextFor(plugin, error.code), error.code));
  }
  return { loadErrors, problems };
}
