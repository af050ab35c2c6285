import type { CallBudget } from "../types.js";
import { McpvmError } from "../../util/errors.js";

/**
 * The MCP tool calls one run may still make (its limits.toolCalls). Shared by the run's concurrent
 * calls; `$batch` takes all of its items at once, so a batch either fits whole or makes no call.
 */
export class RunCallBudget implements CallBudget {
  private taken = 0;

  constructor(readonly limit: number) {}

  get used(): number {
    return this.taken;
  }

  take(count: number): boolean {
    if (this.taken + count > this.limit) return false;
    this.taken += count;
    return true;
  }
}

/** How an error names the budget and the two ways to raise it. */
export function callBudgetText(limit: number): string {
  return `the run's tool-call budget (toolCalls = ${limit}); raise it with \`mcpvm run --tool-calls <n>\` or config.json limits.toolCalls`;
}

export class ToolCallLimitError extends McpvmError<"TOOL_CALL_LIMIT"> {
  override readonly name = "ToolCallLimitError";
}
