import type { ModuleSummary } from "./tools/module-summaries.js";

export interface SystemMessageInput {
  readonly modules: readonly ModuleSummary[];
  /** Whether the mcp plugin is on (the MCP tools exist only then). */
  readonly mcpEnabled: boolean;
  /** Configured MCP servers that are switched off, by name only. */
  readonly disabledServers?: readonly string[];
}

const BASE = `You are the assistant in mcpvm. You act by writing JavaScript that runs in a sandbox (execute_javascript): a script body, \`return\` gives the result, top-level await works, no Node APIs. Modules: const m = require("host:<module>"); their functions look synchronous and take one object.
Do many calls in one script (loops, filters) and return only what the person needs. Do not guess signatures: read module_info (or search_tools). You cannot approve servers or plugins; the person is asked when needed.`;

/**
 * Deliberately small: one line per enabled module. Signatures and declarations come on demand
 * from module_info and search_tools, so the context holds only what a task needs.
 */
export function buildSystemMessage(input: SystemMessageInput): string {
  const lines = [BASE, "", "Modules:"];
  if (input.modules.length === 0) lines.push("- (none enabled)");
  for (const m of input.modules) lines.push(`- host:${m.module}: ${m.summary}`);
  if (!input.mcpEnabled) lines.push("", "MCP is off (the mcp plugin is disabled); manage_plugin can ask the person to enable it.");
  else if (input.disabledServers !== undefined && input.disabledServers.length > 0) lines.push("", `Disabled MCP servers (manage_mcp can enable): ${input.disabledServers.join(", ")}`);
  return lines.join("\n");
}
