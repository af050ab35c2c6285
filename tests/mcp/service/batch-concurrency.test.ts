import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../../src/host/index.js";
import { batchConcurrency, DEFAULT_BATCH_CONCURRENCY } from "../../../src/mcp/service/index.js";
import { fixtureServer, makeHome, valueOf, type E2eHome } from "../../e2e/helpers.js";

/**
 * `$batch` runs as many calls at once as the server takes (`maxConcurrentCalls`, 32 unless
 * configured): a batch of slow calls costs a few calls' latency, not one per item.
 */

describe("batchConcurrency", () => {
  it("defaults to the server's limit, or 32 when the server sets none", () => {
    expect(batchConcurrency(undefined, undefined)).toBe(DEFAULT_BATCH_CONCURRENCY);
    expect(DEFAULT_BATCH_CONCURRENCY).toBe(32);
    expect(batchConcurrency({}, 4)).toBe(4);
  });

  it("takes what the guest asks for, within the server's limit", () => {
    expect(batchConcurrency({ concurrency: 2 }, undefined)).toBe(2);
    expect(batchConcurrency({ concurrency: 500 }, undefined)).toBe(32);
    expect(batchConcurrency({ concurrency: 500 }, 100)).toBe(100);
    expect(batchConcurrency({ concurrency: 8 }, 3)).toBe(3);
  });

  it("ignores a concurrency that is not a positive integer", () => {
    for (const concurrency of [0, -1, 1.5, "8", null, Number.NaN]) expect(batchConcurrency({ concurrency }, 6)).toBe(6);
  });
});

// Each call sleeps long enough that the batch's first calls are still running when its last one of
// the window starts, even on a loaded CI machine (at 150 ms a loaded run once peaked at 31 of 32).
const PEAK_AFTER_BATCH = (items: number, options = "", ms = 1_500) => `
  const fx = require("host:mcp-fx");
  const results = fx.$batch("sleep", Array.from({ length: ${items} }, () => ({ ms: ${ms} }))${options});
  if (!results.every((r) => r.ok)) throw new Error("a batch item failed: " + JSON.stringify(results.find((r) => !r.ok)));
  return fx.peak_in_flight({}).peak;
`;

describe("$batch against a real server that counts the calls it has in flight", () => {
  let home: E2eHome;
  let host: McpvmHost;

  beforeAll(async () => {
    home = await makeHome({
      servers: (dir) => ({
        fx: fixtureServer(join(dir, "fx.starts"), "--mode track-in-flight", { confirm: "never" }),
        narrow: fixtureServer(join(dir, "narrow.starts"), "--mode track-in-flight", { confirm: "never", maxConcurrentCalls: 3 }),
      }),
    });
    host = await home.open();
  });

  afterAll(async () => {
    await host?.close();
    await home?.cleanup();
  });

  it("runs 40 slow calls 32 at a time by default", async () => {
    const peak = valueOf(await host.run(PEAK_AFTER_BATCH(40), { limits: { wallMs: 60_000 } }));
    expect(peak).toBe(32);
  }, 90_000);

  it("honours a lower concurrency the guest asks for", async () => {
    const peak = valueOf(await host.run(PEAK_AFTER_BATCH(10, ", { concurrency: 2 }").replace("host:mcp-fx", "host:mcp-narrow"), { limits: { wallMs: 60_000 } }));
    expect(peak).toBe(2);
  }, 90_000);

  it("never goes over the server's maxConcurrentCalls, whatever the guest asks", async () => {
    const peak = valueOf(await host.run(PEAK_AFTER_BATCH(10, ", { concurrency: 50 }").replace("host:mcp-fx", "host:mcp-narrow"), { limits: { wallMs: 60_000 } }));
    expect(peak).toBe(3);
  }, 90_000);
});
