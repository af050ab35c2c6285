import { McpvmError } from "../../util/errors.js";

export type McpCallErrorCode = "MCP_UNKNOWN_TOOL" | "MCP_TOOL_HELD" | "MCP_CALL_DECLINED" | "MCP_BATCH_INVALID" | "MCP_RESOURCE_TOO_LARGE" | "MCP_BAD_ARGUMENT";

/** Errors the guest sees from the adapter itself (the client manager has its own for transport faults). */
export class McpCallError extends McpvmError<McpCallErrorCode> {
  override readonly name: string;

  constructor(code: McpCallErrorCode, message: string, options?: { data?: Record<string, unknown>; cause?: unknown }) {
    super(code, message, options);
    this.name = { MCP_UNKNOWN_TOOL: "McpUnknownToolError", MCP_TOOL_HELD: "McpToolHeldError", MCP_CALL_DECLINED: "McpCallDeclinedError", MCP_BATCH_INVALID: "McpBatchError", MCP_RESOURCE_TOO_LARGE: "McpResourceTooLargeError", MCP_BAD_ARGUMENT: "McpArgumentError" }[code];
  }
}
