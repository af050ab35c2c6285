import type { ModuleSummary } from "./tools/module-summaries.js";

export interface SystemMessageInput {
  readonly modules: readonly ModuleSummary[];
  /** Whether the mcp plugin is on (MCP servers are modules only then). */
  readonly mcpEnabled: boolean;
  /** Configured MCP servers that are switched off, by name only. */
  readonly disabledServers?: readonly string[];
}

/**
 * Every rule here is said once: how a call looks is in module_info's answer (read before the first
 * call), what a run returns is in execute_javascript's. Sent with every step, so each word counts.
 */
const BASE = `You are mcpvm's assistant; you act by running JavaScript (execute_javascript). Read a module's signatures with module_info before calling it; never guess. Do many calls in one script; return only what the person needs. Only the person approves servers and plugins.`;

/**
 * Deliberately small: one line per enabled module. Signatures come on demand from module_info, so
 * the context holds only what a task needs.
 */
export function buildSystemMessage(input: SystemMessageInput): string {
  const lines = [BASE, "", 'Modules (require("host:<module>")):'];
  if (input.modules.length === 0) lines.push("- (none enabled)");
  for (const m of input.modules) lines.push(`- ${m.module}: ${m.summary}`);
  if (!input.mcpEnabled) lines.push("", 'MCP is off; manage {action: "enable", plugin: "mcp"} asks the person to turn it on.');
  else if (input.disabledServers !== undefined && input.disabledServers.length > 0) lines.push("", `Disabled MCP servers (manage can enable): ${input.disabledServers.join(", ")}`);
  return lines.join("\n");
}
