import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsInlineEngine } from "../../src/sandbox/engines/quickjs-inline.js";
import { inlinePoolFor } from "../../src/sandbox/engines/quickjs-inline-instances.js";
import { createEngine } from "../../src/sandbox/select.js";
import type { HostModules, SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, expectHealthy, run, sleep, valueOf } from "./conformance/helpers.js";

/**
 * What the in-thread engine adds to the conformance suite (which runs against it too): guests
 * suspended in host calls at the same time each hold an asyncify instance of their own, a host call
 * made from inside promise jobs and from an async call's progress listener suspends and resumes
 * correctly, a host function that never answers cannot hold a stopped run, and dispose ends runs.
 */
describe("quickjs-inline engine", () => {
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await createQuickJsInlineEngine({ maxInstances: 8 });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it("suspends eight runs in host calls at once, each resumed with its own reply", async () => {
    // The barrier answers only when all eight runs are inside it: they are suspended concurrently.
    let arrived = 0;
    const waiting: Array<() => void> = [];
    const modules: HostModules = {
      meet: {
        at: async (args) => {
          arrived++;
          if (arrived === 8) for (const release of waiting.splice(0)) release();
          else if (arrived < 8) await new Promise<void>((resolve) => waiting.push(resolve));
          return (args[0] as number) * 10;
        },
      },
    };
    const code = (n: number): string =>
      `const keep = Array.from({ length: 2000 }, (_, i) => i + ${n});
       const first = require("host:meet").at(${n});
       await null;
       const second = require("host:meet").at(${n} + 100);
       return [first, second, keep[0]];`;
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => run(engine, code(n), { modules })));
    // The second call of each run needs no barrier (arrived is past 8).
    expect(results.map(valueOf)).toEqual(Array.from({ length: 8 }, (_, n) => [n * 10, (n + 100) * 10, n]));
  });

  it("makes host calls from promise jobs, async functions, callbacks and getters", async () => {
    const modules: HostModules = { m: { inc: (args) => (args[0] as number) + 1 } };
    const code = `
      const m = require("host:m");
      const viaJob = await Promise.resolve(1).then((x) => m.inc(x));
      const viaAsync = await (async () => { await null; return m.inc(m.inc(0)); })();
      const viaSort = [3, 1, 2].sort((a, b) => m.inc(a) - m.inc(b));
      const viaGetter = { get x() { return m.inc(41); } }.x;
      const viaAll = await Promise.all([1, 2, 3].map(async (n) => { await null; return m.inc(n); }));
      return { viaJob, viaAsync, viaSort, viaGetter, viaAll };`;
    expect(valueOf(await run(engine, code, { modules }))).toEqual({ viaJob: 2, viaAsync: 2, viaSort: [1, 2, 3], viaGetter: 42, viaAll: [2, 3, 4] });
  });

  it("runs a host call made by an async call's progress listener", async () => {
    const modules: HostModules = {
      p: {
        steps: async (_args, context) => {
          for (const step of [1, 2]) {
            context.notify?.({ step });
            await sleep(5);
          }
          return "done";
        },
        echo: (args) => args[0],
      },
    };
    const code = `
      const heard = [];
      const value = await __mcpvm.callAsync("p", "steps", [{}, { onProgress: (e) => heard.push(require("host:p").echo(e.step)) }]);
      return { value, heard };`;
    const modulesWithProgress: HostModules = {
      p: { lazy: true, load: async () => modules.p as never, label: { title: "p", member: "function", progress: true } },
    };
    expect(valueOf(await run(engine, code, { modules: modulesWithProgress }))).toEqual({ value: "done", heard: [1, 2] });
  });

  it("makes a host call from deep recursion and unwinds back through every frame", async () => {
    const modules: HostModules = { m: { id: (args) => args[0] } };
    const code = `
      const m = require("host:m");
      function down(n) { return n === 0 ? m.id(7) : down(n - 1) + 1; }
      return down(300);`;
    expect(valueOf(await run(engine, code, { modules }))).toBe(307);
    // At the deepest frame QuickJS allows: the suspended stack still fits asyncify's buffer.
    const deepest = `
      const m = require("host:m");
      function down(n) { try { return down(n + 1); } catch { return m.id(n); } }
      return down(0);`;
    expect(valueOf(await run(engine, deepest, { modules }))).toBeGreaterThan(500);
    await expectHealthy(engine);
  });

  it("ends a run at its wall limit even when the host function never answers", async () => {
    const modules: HostModules = { m: { never: () => new Promise(() => undefined) } };
    const started = Date.now();
    errorOf(await run(engine, 'require("host:m").never(); return 1;', { modules, limits: { wallMs: 200 } }), "WALL_LIMIT");
    expect(Date.now() - started).toBeLessThan(3_000);
    await expectHealthy(engine);
  });

  it("isolates runs that follow one another on the same instance", async () => {
    const single = await createQuickJsInlineEngine({ maxInstances: 1, idleInstances: 1, maxWasmMemoryBytes: 500 * 1024 * 1024 });
    try {
      const secret: HostModules = { secret: { get: () => "s3cret" } };
      expect(valueOf(await run(single, 'globalThis.leak = 1; Object.prototype.polluted = 1; return require("host:secret").get();', { modules: secret }))).toBe("s3cret");
      const probe = `let viaRequire; try { require("host:secret"); viaRequire = "loaded"; } catch { viaRequire = "refused"; }
        return [typeof globalThis.leak, typeof ({}).polluted, viaRequire];`;
      expect(valueOf(await run(single, probe))).toEqual(["undefined", "undefined", "refused"]);
    } finally {
      await single.dispose();
    }
  });

  it("gives each run its own manifest on a sandbox whose bootstrap ran ahead (image and built alike)", async () => {
    for (const sandboxSnapshots of [true, false]) {
      const single = await createQuickJsInlineEngine({ maxInstances: 1, idleInstances: 1, maxWasmMemoryBytes: (510 + Number(sandboxSnapshots)) * 1024 * 1024, sandboxSnapshots });
      try {
        const probe = "return [__mcpvm.modules, typeof console.log, typeof require, Object.isFrozen(__mcpvm)];";
        for (const [modules, names] of [
          [{ alpha: { a: () => 1 }, beta: { b: () => 2 } }, ["alpha", "beta"]],
          [{}, []],
          [{ gamma: { c: () => 3 } }, ["gamma"]],
        ] as const) {
          expect(valueOf(await run(single, probe, { modules }))).toEqual([names, "function", "function", true]);
          await sleep(20);
        }
        // The result encoder reads the run's own manifest too: its result limit, and the bytes key.
        errorOf(await run(single, 'return "x".repeat(5000);', { limits: { outputBytes: 1000 } }), "OUTPUT_LIMIT");
        expect(valueOf(await run(single, 'return "x".repeat(50);', { limits: { outputBytes: 1000 } }))).toBe("x".repeat(50));
      } finally {
        await single.dispose();
      }
    }
  });

  it("ends a run suspended in a host call when the engine is disposed, and refuses later runs", async () => {
    const disposable = await createQuickJsInlineEngine();
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const modules: HostModules = {
      m: {
        hang: async (_args, context) => {
          entered();
          await sleep(10_000, context.signal);
        },
      },
    };
    const pending = run(disposable, 'require("host:m").hang(); return 1;', { modules });
    await inside;
    await disposable.dispose();
    errorOf(await pending, "CANCELLED");
    errorOf(await run(disposable, "return 1"), "ENGINE_UNAVAILABLE");
  });

  it("gives a new engine an idle instance of the process instead of instantiating wasm", async () => {
    const cap = 501 * 1024 * 1024;
    const first = await createQuickJsInlineEngine({ maxWasmMemoryBytes: cap });
    expect(valueOf(await run(first, "return 1"))).toBe(1);
    await first.dispose();
    const pool = inlinePoolFor(cap);
    const before = pool?.created;
    expect(before).toBe(1);
    const second = await createQuickJsInlineEngine({ maxWasmMemoryBytes: cap });
    try {
      // Its own fresh runtime on the shared instance: nothing of the first engine's run is visible.
      expect(valueOf(await run(second, "return [typeof globalThis.mark, 2]"))).toEqual(["undefined", 2]);
      expect(pool?.created).toBe(before);
    } finally {
      await second.dispose();
    }
  });

  it("is what createEngine gives for quickjs-inline", async () => {
    const created = await createEngine("quickjs-inline");
    try {
      expect(created.engine.kind).toBe("quickjs-inline");
      expect(created.selection).toEqual({ kind: "quickjs-inline", requested: "quickjs-inline", reason: "quickjs-inline was requested", unavailable: {} });
      const result = await created.engine.run({ code: "return 6 * 7" });
      expect(valueOf(result)).toBe(42);
      expect(result.stats.engine).toBe("quickjs-inline");
    } finally {
      await created.engine.dispose();
    }
  });
});

describe("quickjs-inline engine, runs back to back", () => {
  // A memory cap of its own, so this pool is not shared with other tests' engines.
  const cap = 296 * 1024 * 1024;
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await createQuickJsInlineEngine({ maxInstances: 2, idleInstances: 1, maxWasmMemoryBytes: cap, retireAboveBytes: cap });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it("takes the instance's sandbox image even when no run leaves the event loop a turn (each starts in the last one's continuation)", async () => {
    const values = new Set<string>();
    // No timer or immediate between these runs: the idle immediate that used to take the image never ran.
    for (let i = 0; i < 5; i++) {
      const result = await engine.run({ code: "const seen = typeof globalThis.mark; const map = typeof [].map; globalThis.mark = 1; Array.prototype.map = null; return seen + ':' + map + ':' + Math.random();" });
      expect(result.ok, result.ok ? "" : result.error.message).toBe(true);
      if (!result.ok) continue;
      const [seen, map, random] = String(result.value).split(":");
      expect([seen, map]).toEqual(["undefined", "function"]);
      values.add(random ?? "");
    }
    expect(inlinePoolFor(cap)?.imaged).toBe(1);
    expect(values.size).toBe(5);
    expect(inlinePoolFor(cap)?.created).toBe(1);
  });
});
