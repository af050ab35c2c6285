import { McpApprovalStore } from "../../../mcp/approval/index.js";
import { DEFAULT_NATIVE_PLUGIN_NAMES, removeMcpServer, type McpConfigIssue } from "../../../mcp/config/index.js";
import { ToolsetStore } from "../../../gateway/toolsets/store.js";
import { staleToolsets, staleToolsetFix, type StaleToolset } from "../../../host/diagnose/toolsets.js";
import type { McpvmHost } from "../../../host/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { counted } from "../../../util/counted.js";
import { shellWord } from "../../../util/shell-word.js";

const SHOWN = 5;

/**
 * Withdraws a removed server's approval. Through the MCP service when one is built (it also
 * disconnects the server); otherwise straight in approved-mcp.json, recorded in the audit log as the
 * service records it: remove runs without the service, which does not load while config.json has
 * a broken entry — the very case remove is for.
 */
async function revokeApproval(host: McpvmHost, name: string): Promise<boolean> {
  const service = host.mcp();
  if (service !== undefined) return service.revoke(name);
  const revoked = await new McpApprovalStore(host.paths.approvedMcpFile).revoke(name);
  await host.audit.record({ event: "mcp.revoke", subject: name, decision: revoked ? "revoked" : "not-approved" });
  return revoked;
}

function stillInvalidLines(file: string, issues: readonly McpConfigIssue[]): string[] {
  if (issues.length === 0) return [];
  const lines = [`mcpvm: warning: ${file} is still not valid, so MCP stays off:`];
  for (const issue of issues.slice(0, SHOWN)) lines.push(`  - ${issue.path}: ${issue.message} [${issue.rule}]`);
  if (issues.length > SHOWN) lines.push(`  - … and ${issues.length - SHOWN} more`);
  const servers = [...new Set(issues.flatMap((issue) => issue.server ?? []))];
  const commands = servers.slice(0, 3).map((server) => `mcpvm mcp remove ${shellWord(server)}`);
  lines.push(`Fix ${issues.length === 1 ? "it" : "them"} in an editor${commands.length === 0 ? "" : `, or drop a broken entry with ${commands.join(", ")}`}; then \`mcpvm doctor\`.`);
  return lines;
}

/**
 * Saved toolsets that still name the removed server: the gateway equips them without its tools from
 * now on. Said, not changed (the toolset is the person's; rebuilding it is one command). A
 * toolsets.json that cannot be read is not this command's failure: doctor reports it.
 */
async function toolsetsNaming(host: McpvmHost, name: string): Promise<StaleToolset[]> {
  try {
    return staleToolsets(await new ToolsetStore(host.paths.toolsetsFile).list(), new Set(Object.keys(host.config.mcpServers ?? {})), name);
  } catch {
    return [];
  }
}

function toolsetLines(name: string, stale: readonly StaleToolset[]): string[] {
  if (stale.length === 0) return [];
  const listed = stale.slice(0, SHOWN).map((t) => `${t.name} (${t.missing.join(", ")})`);
  const more = stale.length > SHOWN ? `, and ${stale.length - SHOWN} more` : "";
  const fixes = stale.slice(0, SHOWN).map((t) => `  ${staleToolsetFix(t)}`);
  return [`mcpvm: warning: ${counted(stale.length, "toolset")} still ${stale.length === 1 ? "names" : "name"} ${name}: ${listed.join(", ")}${more}. Served, ${stale.length === 1 ? "it lacks" : "they lack"} its tools; rebuild or delete ${stale.length === 1 ? "it" : "them"}:`, ...fixes];
}

/** `mcpvm mcp remove <name>`: works on a config.json whose mcpServers do not validate (see removeMcpServer). */
export async function removeCommand(host: McpvmHost, name: string, context: CommandContext): Promise<ExitCodeValue> {
  const configFile = host.paths.configFile;
  const { stillInvalid } = await removeMcpServer(configFile, name, { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES });
  await revokeApproval(host, name);
  await host.reload();
  const toolsets = await toolsetsNaming(host, name);
  if (context.json) {
    writeJson(context.io.stdout, { removed: name, toolsets: toolsets.map((t) => t.name), stillInvalid });
    return ExitCode.Ok;
  }
  writeLine(context.io.stdout, `removed ${name} (and its approval)`);
  for (const line of [...toolsetLines(name, toolsets), ...stillInvalidLines(configFile, stillInvalid)]) writeLine(context.io.stderr, line);
  return ExitCode.Ok;
}
