import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Redactor } from "../logging/redact.js";
import type { CallerOptions, RequestExtras } from "../mcp/client-manager/index.js";
import { describeHeld, McpCallError, type McpService } from "../mcp/service/index.js";
import type { DirectTool } from "./equipment.js";

/**
 * A call of an equipped tool, through the same trust checks as a guest call: the tool must still
 * be trusted in the server's current catalog (a held or removed tool is refused), its arguments are
 * validated against the pinned inputSchema, the server's rate limit applies, and the upstream
 * CallToolResult comes back unchanged (error results included) apart from secret redaction.
 */
export async function callDirectTool(
  service: McpService,
  redactor: Redactor,
  direct: DirectTool,
  args: Record<string, unknown>,
  caller: CallerOptions,
  extras: RequestExtras = {},
): Promise<CallToolResult> {
  const { server, tool: name } = direct.ref;
  const catalog = await service.catalog(server, caller);
  const tool = catalog.find(name);
  if (tool === undefined) {
    const held = catalog.heldTool(name);
    if (held !== undefined) throw new McpCallError("MCP_TOOL_HELD", describeHeld(server, held), { data: { server, tool: name, reason: held.reason } });
    throw new McpCallError("MCP_UNKNOWN_TOOL", `MCP server ${server} no longer has a tool "${name}"; rebuild the toolset (discover-all-tools, build-toolset).`, {
      data: { server, tool: name },
    });
  }
  tool.validator.assertValid(server, tool.originalName, args);
  await service.acquireCallSlot(server, caller);
  const result = await service.clients.callToolRaw(server, tool.originalName, args, caller, { keepErrorResults: true, ...extras });
  return redactor.redactValue(result);
}
