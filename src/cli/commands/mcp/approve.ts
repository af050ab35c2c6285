import type { McpService } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeLine } from "../../../terminal/io.js";
import { confirm } from "../../../terminal/prompt.js";
import { renderCatalog } from "../../../terminal/render/mcp.js";
import { connecting } from "./connecting.js";

/** `mcpvm mcp approve <name> [--tools]`: the launch definition, then the held tools. */
export async function approve(service: McpService, name: string, toolsOnly: boolean, context: CommandContext): Promise<ExitCodeValue> {
  const err = context.io.stderr;
  if (!toolsOnly) {
    const status = await service.approvalStatus(name);
    if (status.state !== "approved") {
      writeLine(err, await service.approvalPrompt(name));
      if (!(await confirm(context, `Approve MCP server "${name}"?`))) {
        writeLine(err, context.interactive ? "Not approved." : "Not approved: no terminal to ask on. Rerun with --yes to approve unattended.");
        return ExitCode.ApprovalRequired;
      }
      await service.approve(name);
      writeLine(context.io.stdout, `${context.colours.green("approved")} ${name}`);
    } else {
      writeLine(context.io.stdout, `${name} is already approved`);
    }
  }
  // First connection: list and audit the tools; anything held must be confirmed here.
  const catalog = await connecting(context, name, () => service.catalog(name));
  if (catalog.held.length === 0) {
    writeLine(context.io.stdout, `${catalog.tools.length} tool(s) available as host:${catalog.module}; nothing held.`);
    return ExitCode.Ok;
  }
  writeLine(err, renderCatalog(catalog, context.colours));
  if (!(await confirm(context, `Accept the ${catalog.held.length} held tool(s) shown above, findings and changes included?`))) {
    writeLine(err, "Held tools stay hidden from guest code and the model.");
    return ExitCode.ApprovalRequired;
  }
  const { accepted, changedSinceReview, notListed } = await service.acceptTools(name, catalog.held);
  if (accepted.length > 0) writeLine(context.io.stdout, `accepted ${accepted.join(", ")}`);
  if (notListed.length > 0) writeLine(err, context.colours.yellow(`not accepted, no longer listed under that name (or its name holds a secret): ${notListed.join(", ")}`));
  if (changedSinceReview.length > 0) {
    writeLine(err, context.colours.yellow(`not accepted, changed again since shown: ${changedSinceReview.join(", ")}; review them with \`mcpvm mcp approve ${name} --tools\``));
    return ExitCode.ApprovalRequired;
  }
  return ExitCode.Ok;
}
