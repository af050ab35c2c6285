import { auditLaunchEnv } from "../../../mcp/approval/index.js";
import type { McpService } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { displayBlock } from "../../../terminal/display.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { maskedEntry, renderCatalog } from "../../../terminal/render/mcp.js";
import { callerOf, connecting } from "./connecting.js";

/**
 * `mcpvm mcp info <name>`: the definition, its approval, the launch audit (code-loading env) and
 * (when it may start) its tools. Text output escapes every config and server string.
 */
export async function info(service: McpService, name: string, context: CommandContext): Promise<ExitCodeValue> {
  const entry = service.entry(name);
  const approval = await service.approvalStatus(name);
  const out = context.io.stdout;
  const launchFindings = auditLaunchEnv(entry.env);
  if (approval.state !== "approved" || !entry.enabled) {
    const why = !entry.enabled ? "disabled" : approval.state === "changed" ? "changed since approval" : "not approved";
    if (context.json) writeJson(out, { name, definition: maskedEntry(entry), approval: approval.state, enabled: entry.enabled, launchFindings });
    else {
      writeLine(out, await service.approvalPrompt(name));
      writeLine(out, "");
      writeLine(out, context.colours.yellow(`${name} is ${why}, so it was not started and its tools are not listed.`));
    }
    return ExitCode.Ok;
  }
  const catalog = await connecting(context, name, () => service.catalog(name, callerOf(context)));
  if (context.json) {
    writeJson(out, {
      name,
      definition: maskedEntry(entry),
      approval: approval.state,
      launchFindings,
      module: catalog.module,
      tools: catalog.metadata().tools,
      held: catalog.held,
      dropped: catalog.dropped,
      hiddenByFilters: catalog.hiddenByFilters,
      unmatchedFilters: catalog.unmatchedFilters,
    });
  } else {
    writeLine(out, `${context.colours.bold(name)} (${entry.type}) — ${context.colours.green("approved")}`);
    // JSON.stringify escapes C0 controls, not C1 or bidi characters.
    writeLine(out, displayBlock(JSON.stringify(maskedEntry(entry), null, 2)));
    writeLine(out, renderCatalog(catalog, context.colours));
  }
  return ExitCode.Ok;
}
