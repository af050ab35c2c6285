import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createQuickJsEngine, type QuickJsEngineOptions } from "../../src/sandbox/engines/quickjs.js";
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
    const created = await createQuickJsEngine({ idleWorkerMs: 60_000, ...options });
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

  it("gives a run the idle worker whose next sandbox is built, not the one still freeing the last run's", async () => {
    // A heap that grew is normally a reason to replace the worker; not what this case is about.
    const a = await engine({ workerStackMb: 14, warmWorkers: 1, retireAboveBytes: 256 * 1024 * 1024 });
    const workers = () => sharedQuickJsWorkers({ stackSizeMb: 14 });
    // The first run takes the warm worker and a second one starts in the background to stay warm.
    expect(valueOf(await run(a, "return 0"))).toBe(0);
    for (let i = 0; i < 100 && workers().idle < 2; i++) await sleep(20);
    // Both idle, each with its next sandbox built.
    await sleep(200);
    expect(workers().idle).toBe(2);
    // A run whose heap takes a while to free: after its result, its worker is busy freeing and rebuilding.
    const runsOf = () => new Map(workers().threads.map((thread) => [thread.threadId, thread.runs]));
    const servedBy = (before: Map<number, number>) => [...runsOf()].filter(([id, runs]) => runs !== before.get(id)).map(([id]) => id);
    const beforeBig = runsOf();
    const big = "const keep = []; for (let i = 0; i < 200000; i++) keep.push({ i, s: 'x' + i }); return keep.length;";
    expect(valueOf(await run(a, big))).toBe(200_000);
    const bigOn = servedBy(beforeBig);
    const beforeNext = runsOf();
    expect(valueOf(await run(a, "return 1"))).toBe(1);
    const nextOn = servedBy(beforeNext);
    // The next run went to the other worker, not to the one that served the big run (still rebuilding).
    expect(bigOn).toHaveLength(1);
    expect(nextOn).toHaveLength(1);
    expect(nextOn[0]).not.toBe(bigOn[0]);
  });

  it("lets the process exit when an engine is never disposed (idle workers do not hold it)", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/sandbox/fixtures/undisposed-engine.ts")],
      { cwd: ROOT, timeout: 60_000 },
    );
    expect(stdout).toBe("42");
  }, 90_000);
});
