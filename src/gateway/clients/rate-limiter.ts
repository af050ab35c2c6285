import type { Rate } from "./schema.js";

interface Bucket {
  tokens: number;
  last: number;
  readonly rate: Rate;
}

/**
 * One token bucket per client: bursts up to `count`, refilled at `count` per window. A request
 * over the limit is refused at once (429 with Retry-After), never queued, so a flooding client
 * holds no memory or sockets of the gateway and the others are not slowed.
 */
export class ClientRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * 0 when the request may go ahead, else the milliseconds until it may. `cost` is how many requests
   * it counts as (a JSON-RPC batch: one per message); the caller refuses a cost over the burst itself.
   */
  take(client: string, rate: Rate, cost = 1): number {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (bucket === undefined || bucket.rate.count !== rate.count || bucket.rate.perMs !== rate.perMs) {
      bucket = { tokens: rate.count, last: now, rate };
      this.buckets.set(client, bucket);
    }
    bucket.tokens = Math.min(rate.count, bucket.tokens + ((now - bucket.last) / rate.perMs) * rate.count);
    bucket.last = now;
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return 0;
    }
    return Math.ceil(((cost - bucket.tokens) / rate.count) * rate.perMs);
  }
}
