import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import type { HostModules, RunResult, SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, run, valueOf } from "./conformance/helpers.js";

/**
 * Shared mode moves a run that has only computed (no host call, no log) to a thread of its own, where
 * QuickJS's synchronous build computes about twice as fast (quickjs-shared-move.ts). Nothing of the
 * first attempt may show: the result, the logs and the limits are those of one run.
 */
describe("quickjs engine, shared mode: computing runs move to a thread", () => {
  const MOVE_AFTER = 20;
  const LOOP = "let s = 0; for (let i = 0; i < 2000000; i++) { s = (s * 31 + i) % 1000003; } return s;";
  const EXPECTED = (() => {
    let s = 0;
    for (let i = 0; i < 2_000_000; i++) s = (s * 31 + i) % 1000003;
    return s;
  })();
  let engine: SandboxEngine;
  let never: SandboxEngine;

  const GENEROUS = { limits: { cpuMs: 30_000, wallMs: 60_000 } };

  /**
   * Runs the loop on `on` until a run has moved (the thread-mode engine is made and warmed after the
   * first run that computed past the point). A fresh process computes on baseline code at first: the
   * CPU limit is generous, so only the move is measured.
   */
  async function firstMoved(on: SandboxEngine = engine): Promise<RunResult> {
    for (let attempt = 0; attempt < 40; attempt++) {
      const result = await run(on, LOOP, GENEROUS);
      expect(valueOf(result)).toBe(EXPECTED);
      if (result.stats.movedAfterCpuMs !== undefined) return result;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("no run moved to a thread in 40 attempts");
  }

  beforeAll(async () => {
    engine = await createQuickJsEngine({ workerMode: "shared", moveToThreadAfterCpuMs: MOVE_AFTER });
    never = await createQuickJsEngine({ workerMode: "shared", moveToThreadAfterCpuMs: Infinity });
  });
  afterAll(async () => {
    await engine.dispose();
    await never.dispose();
  });

  it("runs a computing guest again on a thread, with one result and both attempts' CPU in the stats", async () => {
    const moved = await firstMoved();
    expect(moved.stats.movedAfterCpuMs).toBeGreaterThanOrEqual(MOVE_AFTER);
    expect(moved.stats.cpuMs).toBeGreaterThan(moved.stats.movedAfterCpuMs ?? 0);
    expect(moved.stats.engine).toBe("quickjs");
    expect(moved.logs).toEqual([]);
  });

  it("never moves a run that has logged: its log is there once, as written", async () => {
    await firstMoved();
    const result = await run(engine, `console.log("started"); ${LOOP}`, GENEROUS);
    expect(valueOf(result)).toBe(EXPECTED);
    // Moved after the log, it would be written twice (a move before it, while the console piece compiles, shows nothing).
    expect(result.logs.map((l) => l.message)).toEqual(["started"]);
  });

  it("never moves a run that has called the host: the call is made once", async () => {
    await firstMoved();
    let calls = 0;
    const modules: HostModules = { counter: { hit: () => ++calls } };
    const result = await run(engine, `const n = require("host:counter").hit(); ${LOOP.replace("return s;", "return [n, s];")}`, { ...GENEROUS, modules });
    expect(valueOf(result)).toEqual([1, EXPECTED]);
    // Moved after its call, the run would call again on the thread. It may move before it: the sandbox's
    // own work before the call (compiling the host-module piece, one long step on a cold, loaded thread)
    // can pass the move point, and the interrupt pace checks right after such a step.
    expect(calls).toBe(1);
  });

  it("counts the first attempt's CPU against the run's CPU limit, and says the run's own limit", async () => {
    await firstMoved();
    const result = await run(engine, "while (true) {}", { limits: { cpuMs: 400 } });
    const error = errorOf(result, "CPU_LIMIT");
    expect(error.message).toContain("cpuMs = 400");
    expect(result.stats.movedAfterCpuMs).toBeGreaterThanOrEqual(MOVE_AFTER);
    expect(result.stats.cpuMs).toBeGreaterThanOrEqual(400);
    expect(result.stats.cpuMs).toBeLessThan(1200);
  });

  it("keeps one wall deadline across both attempts", async () => {
    await firstMoved();
    const started = performance.now();
    const result = await run(engine, "while (true) {}", { limits: { cpuMs: 20_000, wallMs: 600 } });
    expect(errorOf(result, "WALL_LIMIT").message).toContain("wallMs = 600");
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("keeps the memory limit on the thread", async () => {
    await firstMoved();
    const code = "let s = 0; for (let i = 0; i < 300000; i++) s = (s * 31 + i) % 1000003; const keep = []; while (true) keep.push(new Array(10000).fill(s));";
    const result = await run(engine, code, { limits: { memoryBytes: 16 * 1024 * 1024, cpuMs: 20_000 } });
    errorOf(result, "MEMORY_LIMIT");
    expect(result.stats.movedAfterCpuMs).toBeGreaterThanOrEqual(MOVE_AFTER);
  });

  it("ends a moved run when it is cancelled", async () => {
    await firstMoved();
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 300);
    const result = await run(engine, "while (true) {}", { signal: cancel.signal, limits: { cpuMs: 20_000, wallMs: 20_000 } });
    errorOf(result, "CANCELLED");
  });

  it("moves at most as many runs at once as it has threads for; the others stay and finish", async () => {
    const one = await createQuickJsEngine({ workerMode: "shared", maxThreads: 1, moveToThreadAfterCpuMs: MOVE_AFTER });
    try {
      await firstMoved(one);
      const results = await Promise.all([0, 1, 2].map(() => run(one, LOOP, GENEROUS)));
      for (const result of results) expect(valueOf(result)).toBe(EXPECTED);
      expect(results.filter((result) => result.stats.movedAfterCpuMs !== undefined)).toHaveLength(1);
    } finally {
      await one.dispose();
    }
  });

  it("ends a moved run as cancelled when its engine is disposed", async () => {
    const own = await createQuickJsEngine({ workerMode: "shared", moveToThreadAfterCpuMs: MOVE_AFTER });
    await firstMoved(own);
    const endless = run(own, "while (true) {}", GENEROUS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    await own.dispose();
    const result = await endless;
    errorOf(result, "CANCELLED");
    expect(result.stats.movedAfterCpuMs).toBeGreaterThanOrEqual(MOVE_AFTER);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("moves nothing when the point is Infinity", async () => {
    for (let i = 0; i < 3; i++) {
      const result = await run(never, LOOP, GENEROUS);
      expect(valueOf(result)).toBe(EXPECTED);
      expect(result.stats.movedAfterCpuMs).toBeUndefined();
    }
  });
});
