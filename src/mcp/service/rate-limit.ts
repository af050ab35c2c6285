import { McpvmError } from "../../util/errors.js";

export class McpRateLimitError extends McpvmError<"MCP_RATE_LIMITED"> {
  override readonly name = "McpRateLimitError";
}

/**
 * Opt-in (plugins.mcp.config.callsPerSecond): a token bucket per server: bursts up to `perSecond` calls, then `perSecond` calls a second. A
 * caller waits for its token, but never past its own deadline, so a runaway guest loop slows down
 * instead of flooding a server, and still ends within its wall budget.
 */
export class CallRateLimiter {
  private tokens: number;
  private last: number;
  private waited = 0;

  constructor(
    private readonly server: string,
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = perSecond;
    this.last = now();
  }

  async acquire(signal: AbortSignal | undefined, deadline: number | undefined): Promise<void> {
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      const wait = Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
      if (deadline !== undefined && now + wait > deadline) {
        throw new McpRateLimitError("MCP_RATE_LIMITED", `Calls to MCP server ${this.server} are limited to ${this.perSecond} per second, and the run's time budget ends before the next slot.`, {
          data: { server: this.server, perSecond: this.perSecond },
        });
      }
      this.waited += 1;
      await sleep(wait, signal);
    }
  }

  /** How many times a caller had to wait for a slot. */
  get waits(): number {
    return this.waited;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
