import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { createQuickJsInlineEngine } from "../../src/sandbox/engines/quickjs-inline.js";
import type { SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, run } from "./conformance/helpers.js";

/**
 * A guest ended by its CPU limit has had about that much CPU, not more. The engines subtract from a
 * run's counted time what the kernel gave its core to others (preemption-meter.ts). They used to
 * read it as wall minus the thread's time on a core (schedstat's first field), which the kernel only
 * adds to at scheduler ticks: read a millisecond apart it mostly said "no CPU", and an endless loop
 * with a 1.5 s budget got ~2 s or more of CPU on this machine.
 *
 * The guest's own thread is measured (schedstat's first field over the whole run: off by a tick at
 * most): the in-thread engine runs on this test's thread, the worker engines on a thread the engine
 * started. The process's total would also count V8's background compilation of the wasm (over a
 * second of CPU in the thread-per-run mode). Threads are sampled while the run goes on, since a worker
 * ended by a limit is replaced and its thread may be gone when the result arrives. Linux only.
 */
const BUDGET_MS = 1_500;
const TASKS = "/proc/self/task";

/** Each thread's time on a core so far, in ms, by thread id. */
function threadCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const tid of readdirSync(TASKS)) {
    try {
      cpu.set(tid, Number(readFileSync(`${TASKS}/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

const linux = existsSync("/proc/thread-self/schedstat");
/** Node's own threads (V8's compilers among them), started before any engine: not the guest's. */
const nodeThreads = new Set(linux ? threadCpu().keys() : []);
if (linux) nodeThreads.delete(readlinkSync("/proc/thread-self").split("/").pop() as string);

describe.skipIf(!linux)("a guest ended by its CPU limit used about its budget of CPU, no more", () => {
  const engines: Array<readonly [string, () => Promise<SandboxEngine>]> = [
    // No warm worker: the replacement for the worker the limit poisons would start (and compile) during the measurement.
    ["quickjs (a thread per run)", () => createQuickJsEngine({ warmWorkers: 0, maxWorkers: 1 })],
    ["quickjs (shared workers)", () => createQuickJsEngine({ workerMode: "shared", warmWorkers: 1, maxWorkers: 1 })],
    ["quickjs-inline", () => createQuickJsInlineEngine({ maxInstances: 1 })],
  ];
  for (const [name, create] of engines) {
    describe(name, () => {
      let engine: SandboxEngine;
      beforeAll(async () => {
        engine = await create();
        // Warm: the first run compiles and instantiates what later runs reuse.
        await run(engine, "return 1;");
      });
      afterAll(async () => engine.dispose());

      it(`an endless loop with cpuMs ${BUDGET_MS} gets at most ~1.1x that on its thread`, { timeout: 120_000 }, async () => {
        const before = threadCpu();
        const last = new Map(before);
        const sampler = setInterval(() => {
          for (const [tid, ms] of threadCpu()) last.set(tid, ms);
        }, 50);
        // A log first: shared mode would otherwise move a silent computing run to a thread of its own.
        const result = await run(engine, "console.log('computing'); for (;;) {}", { limits: { cpuMs: BUDGET_MS, wallMs: 100_000 } });
        clearInterval(sampler);
        for (const [tid, ms] of threadCpu()) last.set(tid, ms);
        errorOf(result, "CPU_LIMIT");
        // The guest's thread: the busiest of this test's own thread and those the engine started.
        let guestMs = 0;
        for (const [tid, ms] of last) if (!nodeThreads.has(tid)) guestMs = Math.max(guestMs, ms - (before.get(tid) ?? 0));
        expect(guestMs, `the guest's thread had ${guestMs.toFixed(0)} ms of CPU; the run was charged ${result.stats.cpuMs.toFixed(0)} ms`).toBeLessThan(BUDGET_MS * 1.1 + 50);
      });
    });
  }
});
