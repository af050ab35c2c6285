import { afterEach, describe, expect, it } from "vitest";
import { loadQuickJsAssets } from "../../src/sandbox/engines/quickjs-assets.js";
import { ThreadPool } from "../../src/sandbox/engines/quickjs-pool.js";
import { QuickJsThread } from "../../src/sandbox/engines/quickjs-thread.js";

/** A pool over real worker threads that counts how many it was asked to start. */
async function countingPool(
  warmThreads: number,
  maxThreads: number,
): Promise<{ pool: ThreadPool; started: () => number; starts: Promise<QuickJsThread>[] }> {
  const assets = await loadQuickJsAssets();
  let started = 0;
  const starts: Promise<QuickJsThread>[] = [];
  const pool = new ThreadPool({
    warmThreads,
    maxThreads,
    idleMs: 60_000,
    spawn: (signal) => {
      started++;
      const start = QuickJsThread.spawn(assets, { stackSizeMb: 8, maxWasmMemoryBytes: 512 * 1024 * 1024 }, signal);
      starts.push(start);
      return start;
    },
  });
  return { pool, started: () => started, starts };
}

describe("quickjs thread pool", () => {
  let pool: ThreadPool | undefined;
  afterEach(async () => {
    await pool?.dispose();
    pool = undefined;
  });

  it("replaces a warm thread in the background as soon as a run takes it", async () => {
    const counted = await countingPool(1, 3);
    pool = counted.pool;
    await pool.warm();
    expect(counted.started()).toBe(1);
    const first = await pool.acquire();
    expect(counted.started()).toBe(2);
    // Whether or not the replacement has finished starting, taking a second thread keeps one more
    // starting, up to maxThreads.
    const second = await pool.acquire();
    expect(second).not.toBe(first);
    expect(counted.started()).toBe(3);
    await pool.acquire();
    expect(pool.size).toBe(3);
    expect(counted.started()).toBe(3);
  });

  it("hands a thread that finished starting to a waiting run", async () => {
    const counted = await countingPool(1, 2);
    pool = counted.pool;
    await pool.warm();
    const busy = await pool.acquire();
    // At maxThreads (one busy, one starting): this run waits, and gets the background thread
    // without the busy one ever being released.
    const waited = await pool.acquire();
    expect(waited).not.toBe(busy);
    expect(waited.alive).toBe(true);
    expect(counted.started()).toBe(2);
  });

  it("keeps the warm set at its size once runs return their threads", async () => {
    const counted = await countingPool(1, 4);
    pool = counted.pool;
    await pool.warm();
    for (let i = 0; i < 5; i++) pool.release(await pool.acquire(), false);
    // Sequential runs reuse the most recently returned thread; only one replacement was ever started.
    expect(counted.started()).toBe(2);
  });

  it("ends a thread that is still starting when the pool is disposed", async () => {
    const counted = await countingPool(1, 2);
    pool = counted.pool;
    await pool.warm();
    const busy = await pool.acquire();
    expect(counted.starts).toHaveLength(2);
    await pool.dispose();
    expect(busy.alive).toBe(false);
    // The background start is abandoned rather than left running after the engine is gone.
    await expect(counted.starts[1]).rejects.toThrow();
  });
});
