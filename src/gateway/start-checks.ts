import type { McpService } from "../mcp/service/index.js";
import type { ToolsetStore } from "./toolsets/store.js";

/**
 * Reads, once before `mcpvm serve` listens, the state files every request relies on: the MCP
 * approvals (through each server's approval status) and the saved toolsets. A corrupt or unreadable
 * one then stops the start with its own error (STORE_*, exit 3, the file and the fix), as `mcpvm
 * doctor` reports it, instead of a gateway that starts and offers no tools with only a log line to
 * say why. Later damage is reported per request, without stopping a running gateway.
 */
export async function checkGatewayStateFiles(service: McpService, toolsets: ToolsetStore): Promise<void> {
  for (const name of service.serverNames()) await service.approvalStatus(name);
  await toolsets.list();
}
