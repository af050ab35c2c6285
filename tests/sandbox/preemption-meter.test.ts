import { existsSync } from "node:fs";
import * as fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPreemptionMeter } from "../../src/sandbox/engines/preemption-meter.js";

/**
 * The meter subtracts from a run's counted CPU the time its thread waited for a core between two
 * interrupt checks of one running stretch. Its arithmetic is checked against a file standing in for
 * /proc/thread-self/schedstat (the same format: nanoseconds on a core, then nanoseconds waiting on a
 * run queue); the real file against a thread that sleeps, which is not waiting for a core.
 */
describe("PreemptionMeter", () => {
  let dir: string;
  let file: string;
  // The first field (time on a core) moves only at scheduler ticks; the meter must not read it.
  const waitedIs = (ms: number) => writeFile(file, `123456 ${Math.round(ms * 1e6)} 42\n`);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-schedstat-"));
    file = join(dir, "schedstat");
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("credits the run-queue time between two checks of the same stretch, and nothing before a stretch's first check", async () => {
    const meter = createPreemptionMeter(fs, file);
    meter.stretchStarted();
    await waitedIs(1_000);
    expect(meter.observe(100, 30)).toBe(0);
    await waitedIs(1_006); // 10 ms of wall, 6 ms of it waiting for a core
    expect(meter.observe(110, 40)).toBeCloseTo(6);
    await waitedIs(1_006); // 5 ms of wall, all on a core
    expect(meter.observe(115, 45)).toBeCloseTo(6);
    // A host call in between: the wait is not the guest's, and the new stretch's first check only sets a mark.
    meter.stretchStarted();
    await waitedIs(1_300);
    expect(meter.observe(500, 46)).toBeCloseTo(6);
    await waitedIs(1_301);
    expect(meter.observe(503, 49)).toBeCloseTo(7);
    expect(meter.preemptedMs()).toBeCloseTo(7);
    meter.close();
  });

  it("never credits more than an interval's wall time, nor less than nothing", async () => {
    const meter = createPreemptionMeter(fs, file);
    await waitedIs(2_000);
    meter.observe(10, 25);
    await waitedIs(2_009);
    expect(meter.observe(15, 30)).toBeCloseTo(5);
    await waitedIs(1_000);
    expect(meter.observe(20, 35)).toBeCloseTo(5);
    meter.close();
  });

  it("credits nothing where the kernel keeps no scheduler statistics (schedstat reads 0 0 0)", async () => {
    // Before, the first field was read as the thread's CPU time: 0 throughout made every interval
    // "preempted" and a guest's CPU limit never ended it.
    await writeFile(file, "0 0 0\n");
    const meter = createPreemptionMeter(fs, file);
    meter.observe(10, 25);
    expect(meter.observe(500, 515)).toBe(0);
    expect(meter.observe(1_000, 1_015)).toBe(0);
    meter.close();
  });

  it("measures nothing until the run has computed 20 ms (a trivial run does not open the file)", () => {
    const meter = createPreemptionMeter(fs, join(dir, "never-created"));
    expect(meter.observe(5, 19.9)).toBe(0);
    expect(existsSync(join(dir, "never-created"))).toBe(false);
    meter.close();
  });

  it("subtracts nothing where the thread's CPU time cannot be read", async () => {
    await writeFile(join(dir, "garbage"), "not a number\n");
    for (const path of [join(dir, "absent"), join(dir, "garbage")]) {
      const meter = createPreemptionMeter(fs, path);
      meter.observe(10, 25);
      expect(meter.observe(500, 515)).toBe(0);
      meter.close();
    }
  });

  it.skipIf(!existsSync("/proc/thread-self/schedstat"))("reads this thread's real run-queue time: a thread asleep between two checks lost (almost) none of that wall time", () => {
    // Sleeping is not waiting for a core: nothing a guest could do to its thread makes it look preempted.
    // Only the wake-up's wait for a core counts (a few ms on a loaded machine).
    const meter = createPreemptionMeter(fs);
    meter.observe(performance.now(), 25);
    const before = performance.now();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    const slept = performance.now() - before;
    const lost = meter.observe(performance.now(), 225);
    expect(lost).toBeLessThan(slept * 0.25);
    meter.close();
  });
});
