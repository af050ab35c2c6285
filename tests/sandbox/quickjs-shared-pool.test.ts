import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createQuickJsEngine, type QuickJsEngineOptions } from "../../src/sandbox/engines/quickjs.js";
import { idleToTake } from "../../src/sandbox/engines/quickjs-pool.js";
import { CONTROL_LAYOUT } from "../../src/sandbox/engines/quickjs-protocol.js";
import { sharedQuickJsWorkers } from "../../src/sandbox/engines/quickjs-shared-pool.js";
import type { HostModules, SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, run, sleep, valueOf } from "./conformance/helpers.js";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * Engines in one process share their QuickJS workers (one pool per worker options). Each case uses
 * its own workerStackMb so that its engines get a pool of their own, apart from the other cases'.
 * With warmWorkers 0 no background thread is started, so a second run reuses the first run's
 * worker: that is what makes "engine B ran on engine A's worker" certain rather than likely.
 */
describe("quickjs workers shared between engines", () => {
  const engines: SandboxEngine[] = [];
  const engine = async (options: QuickJsEngineOptions): Promise<SandboxEngine> => {
    // These cases test the one-run-per-thread pool (quickjs-shared-pool.ts), whatever the process default.
    const created = await createQuickJsEngine({ idleWorkerMs: 60_000, workerMode: "thread", ...options });
    engines.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.dispose()));
  });

  it("gives a new engine a warm worker instead of starting a thread", async () => {
    const before = sharedQuickJsWorkers().spawned;
    const a = await engine({ workerStackMb: 9, warmWorkers: 1 });
    expect(sharedQuickJsWorkers().spawned).toBe(before + 1);
    const b = await engine({ workerStackMb: 9, warmWorkers: 1 });
    expect(sharedQuickJsWorkers().spawned).toBe(before + 1);
    expect(valueOf(await run(b, "return 1 + 1"))).toBe(2);
    expect(valueOf(await run(a, "return 2 + 2"))).toBe(4);
    // Different worker options never share: this engine starts its own worker.
    await engine({ workerStackMb: 10, warmWorkers: 1 });
    expect(sharedQuickJsWorkers().spawned).toBeGreaterThan(before + 1);
  });

  it("keeps one engine's globals, prototypes and host modules away from another engine's run on the same worker", async () => {
    const a = await engine({ workerStackMb: 11, warmWorkers: 0, maxWorkers: 1 });
    const b = await engine({ workerStackMb: 11, warmWorkers: 0, maxWorkers: 1 });
    const secret: HostModules = { secret: { get: () => "s3cret" } };
    const leak = 'globalThis.leak = "from A"; Object.prototype.polluted = 1; Array.prototype.push = null; return require("host:secret").get();';
    expect(valueOf(await run(a, leak, { modules: secret }))).toBe("s3cret");
    const probe = `
      let viaRequire, viaNative;
      try { require("host:secret"); viaRequire = "loaded"; } catch (e) { viaRequire = "refused"; }
      try { await __mcpvm.callAsync("secret", "get", []); viaNative = "called"; } catch (e) { viaNative = "refused"; }
      const list = []; list.push(1);
      return [typeof globalThis.leak, typeof ({}).polluted, list.length, viaRequire, viaNative];`;
    expect(valueOf(await run(b, probe, { modules: { other: { x: () => 1 } } }))).toEqual(["undefined", "undefined", 1, "refused", "refused"]);
    // Both runs were served by the one worker of this pool.
    const threads = sharedQuickJsWorkers({ stackSizeMb: 11 }).threads.filter((thread) => thread.runs > 0);
    expect(threads).toHaveLength(1);
    expect(threads[0]?.runs).toBe(2);
  });

  it("retires a worker killed in one engine's run for every engine", async () => {
    const a = await engine({ workerStackMb: 12, warmWorkers: 0, maxWorkers: 1, killGraceMs: 100 });
    const b = await engine({ workerStackMb: 12, warmWorkers: 0, maxWorkers: 1 });
    expect(valueOf(await run(b, "return 1"))).toBe(1);
    const [worker] = sharedQuickJsWorkers({ stackSizeMb: 12 }).threads;
    expect(worker).toBeDefined();
    // Array.prototype.join over a huge sparse array runs in native code, past every interrupt check.
    const killed = errorOf(await run(a, 'return Array(2 ** 27).join("").length;', { limits: { wallMs: 200, cpuMs: 60_000 } }), "WALL_LIMIT");
    expect(killed.message).toContain("terminated");
    expect(sharedQuickJsWorkers({ stackSizeMb: 12 }).threads.map((thread) => thread.threadId)).not.toContain(worker?.threadId);
    // A run stopped by a limit leaves a poisoned worker: retired as well.
    errorOf(await run(a, "while (true) {}", { limits: { cpuMs: 100 } }), "CPU_LIMIT");
    expect(sharedQuickJsWorkers({ stackSizeMb: 12 }).threads).toHaveLength(0);
    expect(valueOf(await run(b, "globalThis.x = (globalThis.x ?? 0) + 1; return x"))).toBe(1);
  });

  it("ends only the disposed engine's runs; the other engine's run on the shared pool completes", async () => {
    const a = await engine({ workerStackMb: 13, warmWorkers: 1, maxWorkers: 2 });
    const b = await engine({ workerStackMb: 13, warmWorkers: 1, maxWorkers: 2 });
    const wait: HostModules = { m: { wait: async (args, context) => (await sleep(Number(args[0]), context.signal), "woke") } };
    const long = run(a, 'return require("host:m").wait(10000);', { modules: wait, limits: { wallMs: 20_000 } });
    const short = run(b, 'return require("host:m").wait(600);', { modules: wait });
    await sleep(200);
    const started = Date.now();
    await a.dispose();
    const ended = await long;
    expect(ended.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(valueOf(await short)).toBe("woke");
    errorOf(await run(a, "return 1"), "ENGINE_UNAVAILABLE");
    expect(valueOf(await run(b, "return 3"))).toBe(3);
  });

  // Which idle worker a run takes is idleToTake's choice (tested below); whether a worker is still
  // rebuilding when the next run comes depends on timing, so this case checks the signal it reads.
  it("says how far each worker's next sandbox is: not ready while it runs, idle with its pieces compiled after", async () => {
    const a = await engine({ workerStackMb: 14, warmWorkers: 1 });
    const workers = () => sharedQuickJsWorkers({ stackSizeMb: 14 });
    expect(valueOf(await run(a, "return 0"))).toBe(0);
    const settled = async () => {
      // The first run took the warm worker, and a second one started in the background to stay warm.
      const done = () => workers().threads.length === 2 && workers().threads.every((t) => t.readiness === CONTROL_LAYOUT.readyIdle);
      for (let i = 0; i < 250 && !done(); i++) await sleep(20);
      return workers().threads.map((t) => t.readiness);
    };
    expect(await settled()).toEqual([CONTROL_LAYOUT.readyIdle, CONTROL_LAYOUT.readyIdle]);
    // While a run waits in a host call, its worker is not ready; the other idle one stays ready.
    let during: number[] = [];
    const modules: HostModules = { probe: { look: () => ((during = workers().threads.map((t) => t.readiness)), 1) } };
    expect(valueOf(await run(a, 'return require("host:probe").look()', { modules }))).toBe(1);
    expect([...during].sort()).toEqual([CONTROL_LAYOUT.readyNot, CONTROL_LAYOUT.readyIdle]);
    // After the run its worker builds the next sandbox and compiles its pieces again.
    expect(await settled()).toEqual([CONTROL_LAYOUT.readyIdle, CONTROL_LAYOUT.readyIdle]);
  });

  it("chooses among idle workers the one furthest along, the most recently idle among equals", () => {
    const { readyNot, readyBuilt, readyIdle } = CONTROL_LAYOUT;
    expect(idleToTake([])).toBe(-1);
    expect(idleToTake([readyIdle, readyNot])).toBe(0);
    expect(idleToTake([readyBuilt, readyIdle, readyNot])).toBe(1);
    expect(idleToTake([readyIdle, readyIdle])).toBe(1);
    expect(idleToTake([readyNot, readyNot, readyNot])).toBe(2);
  });

  it("lets the process exit when an engine is never disposed (idle workers do not hold it)", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/sandbox/fixtures/undisposed-engine.ts")],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, MCPVM_QUICKJS_WORKERS: "thread" } },
    );
    expect(stdout).toBe("42");
  }, 90_000);
});
