import { McpvmError } from "../../util/errors.js";
import type { ReplyBudget } from "../types.js";

export class ReplyOverBudgetError extends McpvmError<"HOST_REPLY_OVER_BUDGET"> {}

/** How a host error names the budget and the way to raise it. */
export function overBudgetText(limitBytes: number): string {
  return `the run's memory budget (memoryBytes = ${limitBytes}); raise it with --memory or config.json limits.memoryBytes, or ask for less at once`;
}

/**
 * The bytes of host replies a run's host calls hold at once, bounded by the run's memory budget:
 * a reply bigger than that could never enter the guest's heap, so building one (e.g. a `$batch`
 * collecting 1,000 results of 1 MB) only costs the host memory. A host function holds what it
 * accumulates and releases it when its reply is handed over; concurrent calls share the budget.
 */
export class HostReplyBudget implements ReplyBudget {
  private held = 0;

  constructor(readonly limitBytes: number) {}

  hold(bytes: number): boolean {
    if (this.held + bytes > this.limitBytes) return false;
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  get heldBytes(): number {
    return this.held;
  }
}
