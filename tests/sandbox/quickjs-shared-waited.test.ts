import { describe, expect, it } from "vitest";
import { useOwnSharedEngine } from "./own-shared-engine.js";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { sharedPlacements } from "../../src/sandbox/engines/quickjs-shared-placement.js";
import { SHARED_CONTROL } from "../../src/sandbox/engines/quickjs-shared-protocol.js";
import type { SharedQuickJsThread } from "../../src/sandbox/engines/quickjs-shared-thread.js";
import type { HostModules } from "../../src/sandbox/types.js";
import { errorOf, expectHealthy, run, sleep, valueOf } from "./conformance/helpers.js";

/**
 * The waited call of shared mode (SHARED_CONTROL in quickjs-shared-protocol.ts): a run alone on its
 * thread sleeps in Atomics.wait for a small reply instead of unwinding to the worker's event loop.
 * Each case checks that the worker really was asleep in the call (`waited.asleep` as the host function
 * starts), then what must still hold: a reply arrives once and intact, a large reply goes as a
 * message, and anything else the thread must hear (a new run, a stop, a limit, an event, close) wakes
 * the worker first, so no run starves and no call hangs.
 */
describe("quickjs engine, shared mode: a host call waited for in shared memory", () => {
  // A memory cap of its own gives this suite its own threads.
  const suite = useOwnSharedEngine({ maxWasmMemoryBytes: 320 * 1024 * 1024, maxWorkers: 8 });
  const thread = (): SharedQuickJsThread => {
    const [only] = suite.placement.list();
    if (only === undefined) throw new Error("the suite's thread is gone");
    return only;
  };

  it("answers a lone run's calls in shared memory, each once and intact, and a reply too large for it as a message", async () => {
    const asleep: boolean[] = [];
    const odd = "a\u0000b\ud800c\udc00 é ☃ 😀 \u0001\u0002";
    const modules: HostModules = {
      m: {
        id: (args) => {
          asleep.push(thread().waited.asleep);
          return args[0];
        },
        big: () => {
          asleep.push(thread().waited.asleep);
          return "x".repeat(SHARED_CONTROL.replyUnits * 2);
        },
      },
    };
    const before = thread().waited.replied;
    const code = `
      const m = require("host:m");
      const got = [];
      for (let i = 0; i < 20; i++) got.push(m.id(i));
      const big = m.big();
      return { got, odd: m.id(${JSON.stringify(odd)}), bigLength: big.length, after: m.id("after") };`;
    const value = valueOf(await run(suite.engine, code, { modules }));
    expect(value).toEqual({ got: Array.from({ length: 20 }, (_, i) => i), odd, bigLength: SHARED_CONTROL.replyUnits * 2, after: "after" });
    expect(asleep).toEqual(Array.from({ length: 23 }, () => true));
    // Every call but the large reply's went through shared memory.
    expect(thread().waited.replied - before).toBe(22);
  });

  it("wakes a lone run waiting in a call when a new run is placed on its thread, and serves both", async () => {
    let secondDone: (() => void) | undefined;
    const secondFinished = new Promise<void>((resolve) => (secondDone = resolve));
    let asleep: boolean | undefined;
    const modules: HostModules = {
      m: {
        // Answers only once the second run has ended: that run must be able to start on this thread
        // while the first one waits here.
        waitForSecond: async () => {
          asleep = thread().waited.asleep;
          await secondFinished;
          return "first";
        },
      },
    };
    const first = run(suite.engine, 'return require("host:m").waitForSecond();', { modules, limits: { wallMs: 20_000 } });
    while (asleep === undefined) await sleep(5);
    const second = await run(suite.engine, "return 6 * 7;");
    secondDone?.();
    expect(valueOf(second)).toBe(42);
    expect(valueOf(await first)).toBe("first");
    expect(asleep).toBe(true);
    expect(suite.placement.counts.threads).toBe(1);
  });

  it("ends a run cancelled, or at its wall limit, while it waits in a call whose host function never answers", async () => {
    const asleep: boolean[] = [];
    let entered: (() => void) | undefined;
    const modules: HostModules = {
      m: {
        never: async () => {
          asleep.push(thread().waited.asleep);
          entered?.();
          return new Promise<string>(() => undefined);
        },
      },
    };
    const cancel = new AbortController();
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const cancelled = run(suite.engine, 'return require("host:m").never();', { modules, signal: cancel.signal, limits: { wallMs: 60_000 } });
    await inside;
    cancel.abort();
    // Ended by the worker itself (woken, then stopped as any suspended call), not by ending its thread.
    expect(errorOf(await cancelled, "CANCELLED").message).not.toMatch(/terminated/);
    expect(errorOf(await run(suite.engine, 'return require("host:m").never();', { modules, limits: { wallMs: 300 } }), "WALL_LIMIT").message).not.toMatch(/terminated/);
    expect(asleep).toEqual([true, true]);
    await expectHealthy(suite.engine);
  });

  it("does not count the wait as the guest's CPU", async () => {
    let asleep: boolean | undefined;
    const modules: HostModules = {
      m: {
        slow: async () => {
          asleep = thread().waited.asleep;
          await sleep(600);
          return "done";
        },
      },
    };
    // A CPU budget well under the wait: counting the wait would end the run with CPU_LIMIT.
    const result = await run(suite.engine, 'return require("host:m").slow();', { modules, limits: { cpuMs: 200, wallMs: 20_000 } });
    expect(valueOf(result)).toBe("done");
    expect(asleep).toBe(true);
  });

  it("delivers a call's progress events with its reply, and an async call's live events while a call waits", async () => {
    const asleep: boolean[] = [];
    let finishLive: (() => void) | undefined;
    const functions = {
      steps: (_args: unknown[], context: { notify?: (event: unknown) => void }) => {
        asleep.push(thread().waited.asleep);
        for (const step of [1, 2, 3]) context.notify?.({ step });
        return "stepped";
      },
      // An async call: its first event before the guest calls `hold`, its second and its reply while
      // the guest waits in `hold`'s call.
      live: async (_args: unknown[], context: { notify?: (event: unknown) => void }) => {
        const finished = new Promise<void>((resolve) => (finishLive = resolve));
        context.notify?.({ live: 1 });
        await finished;
        context.notify?.({ live: 2 });
        return "lived";
      },
      hold: async () => {
        asleep.push(thread().waited.asleep);
        finishLive?.();
        await sleep(50);
        return "held";
      },
    };
    const modules: HostModules = { p: { lazy: true, load: async () => functions as never, label: { title: "p", member: "function", progress: true } } };
    const code = `
      const p = require("host:p");
      const heard = [];
      const value = p.steps({}, { onProgress: (e) => heard.push(e.step) });
      let started;
      const first = new Promise((resolve) => (started = resolve));
      const pending = __mcpvm.callAsync("p", "live", [{}, { onProgress: (e) => { heard.push("live " + e.live); started(); } }]);
      await first;
      const held = p.hold();
      return { value, held, lived: await pending, heard };`;
    expect(valueOf(await run(suite.engine, code, { modules }))).toEqual({ value: "stepped", held: "held", lived: "lived", heard: [1, 2, 3, "live 1", "live 2"] });
    // `hold` was called with an async call pending: the run was alone, so it waited in shared memory too.
    expect(asleep).toEqual([true, true]);
  });

  it("releases a lone run's worker from a call still out after SHARED_CONTROL.waitMs, and delivers its reply as a message", async () => {
    const seen: Array<{ atStart: boolean; later: boolean }> = [];
    const modules: HostModules = {
      m: {
        slow: async (args) => {
          const atStart = thread().waited.asleep;
          await sleep(SHARED_CONTROL.waitMs * 10);
          // The worker was taken out of its wait while the call was out: its event loop runs again.
          seen.push({ atStart, later: thread().waited.asleep });
          return args[0];
        },
        quick: (args) => args[0],
      },
    };
    const before = { replied: thread().waited.replied, released: thread().waited.releasedSlow };
    const code = 'const m = require("host:m"); return [m.slow("one"), m.quick("q"), m.slow("two")];';
    const value = valueOf(await run(suite.engine, code, { modules }));
    expect(value).toEqual(["one", "q", "two"]);
    expect(seen).toEqual([
      { atStart: true, later: false },
      { atStart: true, later: false },
    ]);
    // The slow calls were released and answered by message, the quick one in shared memory.
    expect(thread().waited.releasedSlow - before.released).toBe(2);
    expect(thread().waited.replied - before.replied).toBe(1);
    await expectHealthy(suite.engine);
  });

  it("delivers every reply exactly once when replies race the slow-call release", async () => {
    // Answers spread from at once to past twice waitMs, so replies meet the slow-call check at every
    // point; a reply lost there would hang the run, one delivered twice would skew the sum.
    const delays = Array.from({ length: 60 }, (_, i) => (i % 12) * (SHARED_CONTROL.waitMs / 4));
    const modules: HostModules = {
      m: {
        after: async (args) => {
          const [i] = args as [number];
          await sleep(delays[i] ?? 0);
          return i;
        },
      },
    };
    const code = `const m = require("host:m"); let sum = 0, got = []; for (let i = 0; i < ${delays.length}; i++) { const v = m.after(i); got.push(v); sum += v; } return { sum, ordered: got.every((v, i) => v === i) };`;
    const value = valueOf(await run(suite.engine, code, { modules, limits: { wallMs: 30_000 } }));
    expect(value).toEqual({ sum: (delays.length * (delays.length - 1)) / 2, ordered: true });
    await expectHealthy(suite.engine);
  });

  it("fails a run waiting in a call when its thread is closed", async () => {
    const own = 352 * 1024 * 1024;
    const closing = await createQuickJsEngine({ workerMode: "shared", maxThreads: 1, maxWorkers: 2, maxWasmMemoryBytes: own });
    const ownPlacement = sharedPlacements().find((candidate) => candidate.options.maxWasmMemoryBytes === own);
    if (ownPlacement === undefined) throw new Error("no placement for the case's engine");
    let asleep: boolean | undefined;
    const modules: HostModules = {
      m: {
        never: async () => {
          asleep = ownPlacement.list()[0]?.waited.asleep;
          return new Promise<string>(() => undefined);
        },
      },
    };
    const waiting = run(closing, 'return require("host:m").never();', { modules, limits: { wallMs: 60_000 } });
    while (asleep === undefined) await sleep(5);
    // The thread ends under the sleeping worker: the run fails with it, at once.
    await ownPlacement.dispose();
    const result = await waiting;
    expect(result.ok).toBe(false);
    expect(asleep).toBe(true);
    await closing.dispose();
  });
});
