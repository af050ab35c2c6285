import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useOwnSharedEngine } from "./own-shared-engine.js";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { sharedPlacements } from "../../src/sandbox/engines/quickjs-shared-placement.js";
import type { HostModules } from "../../src/sandbox/types.js";
import { errorOf, expectHealthy, MEMORY_TEST_LIMITS, run, sleep, valueOf } from "./conformance/helpers.js";

/**
 * What the worker engine's shared mode adds to the conformance suite (which runs against it too):
 * runs waiting in host calls share one worker thread; a CPU-bound guest yields its thread between
 * time slices, so a run sharing it keeps making host calls, and is stopped by its interrupt handler,
 * not by killing the thread; a thread that dies fails only the runs it held, and is replaced.
 */
describe("quickjs engine, shared workers", () => {
  // A memory cap of its own gives this suite its own threads.
  const suite = useOwnSharedEngine({ maxWasmMemoryBytes: 384 * 1024 * 1024, maxWorkers: 16 });

  /** Host function `gate.wait()` answers once `count` calls are inside it, so the runs are live at once. */
  const barrier = (count: number, seen: { max: number }): HostModules => {
    const waiting: Array<() => void> = [];
    return {
      gate: {
        wait: async (args) => {
          seen.max = Math.max(seen.max, suite.placement.counts.runs);
          if (waiting.length + 1 === count) for (const release of waiting.splice(0)) release();
          else await new Promise<void>((resolve) => waiting.push(resolve));
          return args[0];
        },
      },
    };
  };

  it("keeps ten runs, each waiting in a host call, alive on one worker thread", async () => {
    const seen = { max: 0 };
    const modules = barrier(10, seen);
    const code = (n: number): string => `const keep = Array.from({ length: 3000 }, (_, i) => i * ${n}); const got = require("host:gate").wait(${n}); return [got, keep[1]];`;
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => run(suite.engine, code(n), { modules })));
    expect(results.map(valueOf)).toEqual(Array.from({ length: 10 }, (_, n) => [n, n]));
    expect(seen.max).toBe(10);
    expect(suite.placement.counts.threads).toBe(1);
  });

  it("serves a run's host calls while a CPU-bound guest computes on the same thread, and stops that guest in the thread", async () => {
    let entered: (() => void) | undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let go: (() => void) | undefined;
    const spinnerComputing = new Promise<void>((resolve) => (go = resolve));
    const modules: HostModules = {
      m: {
        // The calling run is placed first and waits in its first call, so the spinning one joins its thread.
        inc: async (args) => {
          if (args[0] === 0) {
            entered?.();
            await spinnerComputing;
          }
          return (args[0] as number) + 1;
        },
      },
    };
    const calling = run(suite.engine, 'const m = require("host:m"); let n = 0; for (let i = 0; i < 50; i++) n = m.inc(n); return n;', { modules, limits: { wallMs: 30_000 } });
    await inside;
    const stopSpinner = new AbortController();
    let spinnerEnded = false;
    const spinning = run(suite.engine, "for (;;) {}", { limits: { wallMs: 60_000, cpuMs: 60_000 }, signal: stopSpinner.signal }).finally(() => (spinnerEnded = true));
    await sleep(300);
    go?.();
    // 49 more calls, each answered while the other guest computes between its time slices.
    expect(valueOf(await calling)).toBe(50);
    expect(spinnerEnded).toBe(false);
    expect(suite.placement.counts.threads).toBe(1);
    stopSpinner.abort();
    // Stopped by its interrupt handler inside the thread (not by killing it), long before its 60 s limits.
    const spun = await spinning;
    expect(errorOf(spun, "CANCELLED").message).not.toMatch(/terminated/);
    expect(spun.stats.wallMs).toBeLessThan(30_000);
    await expectHealthy(suite.engine);
  });

  it("cancels a waiting run while another guest computes on its thread, once that guest yields", async () => {
    let released: (() => void) | undefined;
    const entered = new Promise<void>((resolve) => (released = resolve));
    const modules: HostModules = {
      slow: {
        pause: async (_args, context) => {
          released?.();
          await sleep(5_000, context.signal);
          return "late";
        },
      },
    };
    const cancel = new AbortController();
    const waiting = run(suite.engine, 'return require("host:slow").pause();', { modules, signal: cancel.signal });
    await entered;
    const spinning = run(suite.engine, "for (;;) {}", { limits: { wallMs: 1_200, cpuMs: 10_000 } });
    setTimeout(() => cancel.abort(), 200);
    const [cancelled, spun] = await Promise.all([waiting, spinning]);
    errorOf(cancelled, "CANCELLED");
    expect(errorOf(spun, "WALL_LIMIT").message).not.toMatch(/terminated/);
    await expectHealthy(suite.engine);
  });

  it("fails only the runs of a thread that dies, with a typed error, and replaces the thread", async () => {
    let inside = 0;
    let allInside: (() => void) | undefined;
    const ready = new Promise<void>((resolve) => (allInside = resolve));
    const modules: HostModules = {
      hang: {
        forever: async (_args, context) => {
          if (++inside === 3) allInside?.();
          await sleep(30_000, context.signal);
          return "never";
        },
      },
    };
    const runs = Array.from({ length: 3 }, () => run(suite.engine, 'return require("host:hang").forever();', { modules, limits: { wallMs: 30_000 } }));
    await ready;
    const [thread] = suite.placement.list();
    expect(suite.placement.list()).toHaveLength(1);
    await thread?.terminate();
    for (const result of await Promise.all(runs)) expect(errorOf(result, "ENGINE_FAILURE").message).toMatch(/worker stopped unexpectedly/);
    expect(thread?.alive).toBe(false);
    // The next run gets a new thread.
    await expectHealthy(suite.engine);
    expect(suite.placement.list()).toHaveLength(1);
    expect(suite.placement.list()[0]).not.toBe(thread);
  });

  it("keeps runs on another thread going when one thread dies", async () => {
    // Two warm threads: the second run finds the first computing and goes to the other thread.
    const two = await createQuickJsEngine({ workerMode: "shared", maxThreads: 2, warmWorkers: 2, maxWorkers: 16, maxWasmMemoryBytes: 320 * 1024 * 1024 });
    const pair = sharedPlacements().find((candidate) => candidate.options.maxWasmMemoryBytes === 320 * 1024 * 1024);
    try {
      let computing = 0;
      // Each run computes a while, then waits in a host call.
      const waiting: Array<() => void> = [];
      const modules: HostModules = {
        hold: {
          here: async () => {
            computing++;
            await new Promise<void>((resolve) => waiting.push(resolve));
            return "kept";
          },
        },
      };
      const code = 'const until = Date.now() + 300; while (Date.now() < until) {} return require("host:hold").here();';
      const first = two.run({ code, modules, limits: { wallMs: 20_000 } });
      const second = two.run({ code, modules, limits: { wallMs: 20_000 } });
      while (computing < 2) await sleep(20);
      const threads = pair?.list() ?? [];
      expect(threads.map((thread) => thread.runs)).toEqual([1, 1]);
      await threads[0]?.terminate();
      for (const release of waiting.splice(0)) release();
      const results = await Promise.all([first, second]);
      const failed = results.filter((result) => !result.ok);
      const succeeded = results.filter((result) => result.ok);
      expect(failed).toHaveLength(1);
      expect(succeeded.map((result) => (result.ok ? result.value : undefined))).toEqual(["kept"]);
    } finally {
      await two.dispose();
      await pair?.dispose();
    }
  });

  it("keeps each run's memory budget while runs share a thread", async () => {
    const seen = { max: 0 };
    const modules = barrier(2, seen);
    const big = run(suite.engine, 'require("host:gate").wait(1); const a = []; for (let i = 0; i < 1e7; i++) a.push({ i }); return a.length;', {
      modules,
      limits: { ...MEMORY_TEST_LIMITS, memoryBytes: 8 * 1024 * 1024 },
    });
    const small = run(suite.engine, 'require("host:gate").wait(2); return Array.from({ length: 1000 }, (_, i) => i).length;', { modules, limits: { memoryBytes: 8 * 1024 * 1024 } });
    errorOf(await big, "MEMORY_LIMIT");
    expect(valueOf(await small)).toBe(1000);
  });

  it("places a run beside a computing guest at once, starts another thread for a run that finds every thread computing a while, and packs waiting runs onto one", async () => {
    const bytes = 352 * 1024 * 1024;
    // A generous threshold (a loaded CI machine can stall any run for tens of ms); the spinning guest exceeds it by far.
    const two = await createQuickJsEngine({ workerMode: "shared", maxThreads: 2, warmWorkers: 1, maxWorkers: 16, maxWasmMemoryBytes: bytes, spawnThreadAfterMs: 3_000 });
    const pair = sharedPlacements().find((candidate) => candidate.options.maxWasmMemoryBytes === bytes);
    try {
      // Ten runs waiting in host calls at once stay on the warm thread: each yields soon after it is placed.
      const seen = { max: 0 };
      const waiters = barrier(10, seen);
      const results = await Promise.all(Array.from({ length: 10 }, (_, n) => run(two, `return require("host:gate").wait(${n});`, { modules: waiters })));
      expect(results.map(valueOf)).toEqual(Array.from({ length: 10 }, (_, n) => n));
      expect(pair?.counts.threads).toBe(1);
      // A guest that computes for seconds: the next runs share its thread at once (it yields between
      // time slices) instead of waiting for it to end or for a thread to start. It is ended by a cancel once the
      // test is done: a wall limit (it had 10 s) ran out first on a loaded machine, and the checks below need it computing.
      let spinDone = false;
      const spin = new AbortController();
      const spinning = run(two, "for (;;) {}", { signal: spin.signal, limits: { wallMs: 120_000, cpuMs: 240_000 } }).finally(() => (spinDone = true));
      // Placed (and so computing, as far as placement is concerned) before the next runs are.
      while (pair?.list()[0]?.computing !== 1 && !spinDone) await sleep(10);
      const where: HostModules = { place: { runs: () => pair?.list().map((thread) => thread.runs) } };
      const beside = await Promise.all(Array.from({ length: 10 }, () => run(two, 'return require("host:place").runs().length;', { modules: where })));
      expect(beside.map(valueOf)).toEqual(Array.from({ length: 10 }, () => 1));
      expect(spinDone).toBe(false);
      // Runs placed before every thread had computed for spawnThreadAfterMs started no thread.
      expect(pair?.counts).toMatchObject({ threads: 1, starting: 0 });
      // Once it has (and has computed half the window's slices: fewer on a loaded machine, so runs are
      // placed until one finds that), a run placed beside the guest starts another thread, and the
      // next run gets it to itself.
      while ((pair?.list()[0]?.busyForMs() ?? 0) < 3_000 && !spinDone) await sleep(50);
      while (pair?.counts.threads === 1 && pair.counts.starting === 0 && !spinDone) {
        expect(valueOf(await run(two, 'return require("host:place").runs();', { modules: where }))).toEqual([2]);
        await sleep(50);
      }
      while (pair?.counts.threads !== 2 && !spinDone) await sleep(50);
      expect(valueOf(await run(two, 'return require("host:place").runs();', { modules: where }))).toEqual([1, 1]);
      expect(spinDone).toBe(false);
      spin.abort();
      errorOf(await spinning, "CANCELLED");
    } finally {
      await two.dispose();
      await pair?.dispose();
    }
  }, 120_000);

  it("lets the process exit when an engine is never disposed (idle threads do not hold it)", async () => {
    const root = join(import.meta.dirname, "..", "..");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, "node_modules/vite-node/vite-node.mjs"), join(root, "tests/sandbox/fixtures/undisposed-engine.ts")],
      // The fixture's engine takes the process's default mode.
      { cwd: root, timeout: 60_000, env: { ...process.env, MCPVM_QUICKJS_WORKERS: "shared" } },
    );
    expect(stdout).toBe("42");
  }, 90_000);
});
