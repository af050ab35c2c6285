import { tool } from "ai";
import { z } from "zod";
import type { AuditReport, PluginInfo } from "../../plugin-system/index.js";
import { AgentToolError } from "./module-info.js";
import { modelSchema } from "./model-schema.js";
import { guardedTool } from "./output.js";
import type { AgentToolContext } from "./types.js";

export const managePluginInput = z.object({
  action: z.enum(["enable", "disable", "info"]),
  name: z.string().min(1).describe("Plugin name (e.g. mcp, fs-read, fetch)."),
});

/** What the person reads before approving a plugin the assistant asked for. */
export function pluginApprovalText(info: PluginInfo, audit: AuditReport): string {
  const lines = [
    `Plugin ${info.name} ${info.version} (${info.source}): ${info.description}`,
    `  modules:      ${info.modules.map((m) => `host:${m}`).join(", ") || "(none)"}`,
    `  capabilities: ${info.capabilities.join(", ") || "(none)"}`,
    `  audit:        ${audit.files.length} file(s), highest risk ${audit.highestRisk ?? "none"}, ${audit.findings.length} finding(s)`,
    ...audit.findings.map((f) => `    ${f.risk} ${f.rule} ${f.file}:${f.line}:${f.column} ${f.message}`),
  ];
  return lines.join("\n");
}

export function managePluginTool(context: AgentToolContext) {
  return tool({
    description: "Enable, disable or inspect a plugin (the mcp plugin gates every MCP feature). Enabling an unapproved plugin asks the person.",
    inputSchema: modelSchema(managePluginInput),
    execute: async ({ action, name }, { abortSignal }) =>
      guardedTool(context.host, async () => {
        const plugins = context.host.plugins;
        const info = await plugins.info(name);
        switch (action) {
          case "info":
            return { name, description: info.description, state: info.state, approval: info.approval, modules: info.modules, capabilities: info.capabilities, highestRisk: info.highestRisk };
          case "disable":
            await plugins.disable(name);
            await context.host.reload();
            return { disabled: name };
          case "enable": {
            if (info.approval !== "valid") {
              if (!context.person.canAsk) {
                throw new AgentToolError("PERSON_UNAVAILABLE", `Plugin ${name} is not approved, and there is no terminal to ask the person. Only they can approve it: \`mcpvm plugin approve ${name}\`.`);
              }
              if (!(await context.person.confirm(pluginApprovalText(info, info.audit), `The assistant asks to enable plugin "${name}". Approve it?`, abortSignal))) {
                throw new AgentToolError("DECLINED", `The person declined to approve plugin ${name}. Do not ask again unless they want it.`);
              }
              await plugins.approve(name);
            }
            await plugins.enable(name);
            await context.host.reload();
            return { enabled: name, modules: info.modules.map((m) => `host:${m}`), ...(name === "mcp" ? { note: "MCP tools (search_tools, manage_mcp) are available from your next step." } : {}) };
          }
        }
      }),
  });
}
