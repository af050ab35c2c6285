import type { McpServerEntry } from "../config/index.js";
import type { CallerOptions } from "../client-manager/index.js";
import type { ApprovalRecheck } from "./approval-recheck.js";
import { CallRateLimiter } from "./rate-limit.js";

export interface CallSlotsOptions {
  readonly recheck: ApprovalRecheck<McpServerEntry>;
  readonly entry: (name: string) => McpServerEntry;
  /** Opt-in per-server limit; unset means no throttling at all. */
  readonly callsPerSecond?: number | undefined;
  readonly now?: (() => number) | undefined;
  /** A re-check found the approval gone: drop what the server had (its catalog, its connection). */
  readonly revoked: (name: string) => Promise<void>;
}

/**
 * What every tool call passes before it goes out: the approval checked again (a revoke by another
 * process, such as `mcpvm mcp revoke` while a REPL runs, stops the server at its next call; the file
 * is only re-read when its stamp changed, see ApprovalRecheck), then, only where `callsPerSecond` is
 * configured, the server's rate limit (within the caller's deadline).
 */
export class CallSlots {
  private readonly limiters = new Map<string, CallRateLimiter>();

  constructor(private readonly options: CallSlotsOptions) {}

  async acquire(name: string, caller: CallerOptions): Promise<void> {
    // The re-check passes at once, with no read, while the file's stamp is the one that passed.
    await this.requireStillApproved(name);
    const perSecond = this.options.callsPerSecond;
    if (perSecond === undefined) return;
    let limiter = this.limiters.get(name);
    if (limiter === undefined) {
      limiter = new CallRateLimiter(name, perSecond, this.options.now);
      this.limiters.set(name, limiter);
    }
    await limiter.acquire(caller.signal, caller.deadline);
  }

  /**
   * True when a call may go ahead at once: no rate limit is configured, and the approval passed
   * before against the approvals file's current stamp (a stat, no read; see ApprovalRecheck.passes).
   * False means `acquire` must be awaited: it runs the full check (and the rate limit).
   */
  free(name: string): boolean {
    return this.options.callsPerSecond === undefined && this.options.recheck.passes(name, this.options.entry(name));
  }

  /** The server's rate limiter, which exists only once a call met an opt-in `callsPerSecond`. */
  rateLimiter(name: string): CallRateLimiter | undefined {
    return this.limiters.get(name);
  }

  private async requireStillApproved(name: string): Promise<void> {
    try {
      await this.options.recheck.require(name, this.options.entry(name));
    } catch (error) {
      await this.options.revoked(name);
      throw error;
    }
  }
}
