import { McpApprovalError } from "../approval/index.js";

/**
 * The approval check every start and call goes through, remembering which servers passed it in this process.
 * A server whose approval is revoked while it is in use (`mcpvm mcp revoke` from another terminal, `/mcp revoke`)
 * was refused with "is not approved, so it was not started" — wrong for a server that ran a moment ago: the
 * refusal then says the approval was revoked, and how to approve it again.
 */
export class ApprovalGate {
  private readonly passed = new Set<string>();

  constructor(private readonly check: (name: string) => Promise<void>) {}

  async require(name: string): Promise<void> {
    try {
      await this.check(name);
    } catch (error) {
      throw this.passed.has(name) ? revokedSince(name, error) : error;
    }
    this.passed.add(name);
  }
}

function revokedSince(name: string, error: unknown): unknown {
  if (!(error instanceof McpApprovalError) || error.code !== "MCP_NOT_APPROVED") return error;
  return new McpApprovalError(
    "MCP_NOT_APPROVED",
    `MCP server "${name}" was approved when mcpvm started using it, but its approval has been revoked since, so it was stopped and its calls are refused. To use it again, review it and run \`mcpvm mcp approve ${name}\` (or /mcp approve ${name}).`,
    error.data === undefined ? { cause: error } : { data: { ...error.data }, cause: error },
  );
}
