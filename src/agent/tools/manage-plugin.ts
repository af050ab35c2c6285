import { displayInline } from "../../terminal/display.js";
import type { AuditReport, PluginInfo } from "../../plugin-system/index.js";
import { AgentToolError } from "./errors.js";
import type { AgentToolContext } from "./types.js";
import { counted } from "../../util/counted.js";

export type PluginAction = "info" | "enable" | "disable";

/** What the person reads before approving a plugin the assistant asked for; the author's text goes through display.ts. */
export function pluginApprovalText(info: PluginInfo, audit: AuditReport): string {
  const lines = [
    `Plugin ${info.name} ${info.version} (${info.source}): ${displayInline(info.description)}`,
    `  modules:      ${info.modules.map((m) => `host:${m}`).join(", ") || "(none)"}`,
    `  capabilities: ${info.capabilities.join(", ") || "(none)"}`,
    ...(info.manifest.hints.length > 0 ? ["  hints for the model:", ...info.manifest.hints.map((h) => `    - ${displayInline(h)}`)] : []),
    `  audit:        ${counted(audit.files.length, "file")}, highest risk ${audit.highestRisk ?? "none"}, ${counted(audit.findings.length, "finding")}`,
    ...audit.findings.map((f) => `    ${f.risk} ${f.rule} ${displayInline(f.file)}:${f.line}:${f.column} ${displayInline(f.message)}`),
  ];
  return lines.join("\n");
}

/** manage {action, plugin}: inspect, enable (the person approves an unapproved one) or disable a plugin. */
export async function pluginAction(context: AgentToolContext, action: PluginAction, name: string, abortSignal?: AbortSignal): Promise<Record<string, unknown>> {
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
        await plugins.approve(name, { expectedHash: info.hash });
      }
      await plugins.enable(name);
      await context.host.reload();
      return { enabled: name, modules: info.modules.map((m) => `host:${m}`) };
    }
  }
}

/** manage {action: "list"}'s plugin part: every plugin the host found, with what the model needs to choose. */
export async function listPlugins(context: AgentToolContext): Promise<Array<Record<string, unknown>>> {
  const { plugins } = await context.host.plugins.list();
  return plugins.map((p) => ({ name: p.name, enabled: p.enabled, approval: p.approval, state: p.state, modules: p.modules.map((m) => `host:${m}`) }));
}
