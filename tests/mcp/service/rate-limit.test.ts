import { describe, expect, it } from "vitest";
import { CallRateLimiter, McpRateLimitError } from "../../../src/mcp/service/rate-limit.js";

describe("CallRateLimiter", () => {
  it("allows a burst up to the rate, then refuses a call that cannot get a slot before its deadline", async () => {
    let now = 1_000;
    const limiter = new CallRateLimiter("s", 3, () => now);
    for (let i = 0; i < 3; i++) await limiter.acquire(undefined, now + 10);
    const error = await limiter.acquire(undefined, now + 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpRateLimitError);
    expect((error as McpRateLimitError).code).toBe("MCP_RATE_LIMITED");
    now += 400; // 1.2 tokens refilled
    await expect(limiter.acquire(undefined, now + 10)).resolves.toBeUndefined();
  });

  it("waits for the next slot when the deadline allows", async () => {
    const limiter = new CallRateLimiter("s", 50);
    const start = Date.now();
    for (let i = 0; i < 52; i++) await limiter.acquire(undefined, Date.now() + 5_000);
    expect(Date.now() - start).toBeGreaterThanOrEqual(30);
  });

  it("stops waiting when the run is cancelled", async () => {
    const limiter = new CallRateLimiter("s", 1);
    await limiter.acquire(undefined, undefined);
    const controller = new AbortController();
    const pending = limiter.acquire(controller.signal, undefined);
    controller.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("cancelled");
  });
});
