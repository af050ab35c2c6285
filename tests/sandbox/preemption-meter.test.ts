import { existsSync } from "node:fs";
import * as fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPreemptionMeter } from "../../src/sandbox/engines/preemption-meter.js";

/**
 * The meter subtracts from a run's counted CPU the wall time its thread did not run between two
 * interrupt checks of one running stretch. Its arithmetic is checked against a file standing in for
 * /proc/thread-self/schedstat (the same format: nanoseconds first); the real file against a thread
 * that sleeps, whose CPU time does not move whatever else the machine does.
 */
describe("PreemptionMeter", () => {
  let dir: string;
  let file: string;
  const cpuIs = (ms: number) => writeFile(file, `${Math.round(ms * 1e6)} 123456 42\n`);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-schedstat-"));
    file = join(dir, "schedstat");
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("credits wall minus CPU between two checks of the same stretch, and nothing before a stretch's first check", async () => {
    const meter = createPreemptionMeter(fs, file);
    meter.stretchStarted();
    await cpuIs(1_000);
    expect(meter.observe(100, 30)).toBe(0);
    await cpuIs(1_004); // 10 ms of wall, 4 ms on a core: 6 ms taken
    expect(meter.observe(110, 40)).toBeCloseTo(6);
    await cpuIs(1_009); // 5 ms of wall, 5 on a core
    expect(meter.observe(115, 45)).toBeCloseTo(6);
    // A host call in between: the wait is not the guest's, and the new stretch's first check only sets a mark.
    meter.stretchStarted();
    await cpuIs(1_010);
    expect(meter.observe(500, 46)).toBeCloseTo(6);
    await cpuIs(1_012);
    expect(meter.observe(503, 49)).toBeCloseTo(7);
    expect(meter.preemptedMs()).toBeCloseTo(7);
    meter.close();
  });

  it("never credits more CPU than wall (a clock read out of step counts as no loss)", async () => {
    const meter = createPreemptionMeter(fs, file);
    await cpuIs(2_000);
    meter.observe(10, 25);
    await cpuIs(2_009);
    expect(meter.observe(15, 30)).toBe(0);
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

  it.skipIf(!existsSync("/proc/thread-self/schedstat"))("reads this thread's real CPU time: a thread asleep between two checks lost all of that wall time", () => {
    const meter = createPreemptionMeter(fs);
    meter.observe(performance.now(), 25);
    const before = performance.now();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    const slept = performance.now() - before;
    const lost = meter.observe(performance.now(), 225);
    expect(lost).toBeGreaterThan(slept * 0.8);
    expect(lost).toBeLessThanOrEqual(slept + 5);
    meter.close();
  });
});
