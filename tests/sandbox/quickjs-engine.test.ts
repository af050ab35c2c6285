import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import type { HostCallContext, HostModule, HostModules, SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, expectHealthy, run, sleep, valueOf } from "./conformance/helpers.js";

/** Behaviour specific to the QuickJS engine's worker-thread design (the shared contract is in conformance). */
describe("quickjs engine", () => {
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await createQuickJsEngine({ warmWorkers: 1, maxWorkers: 2, killGraceMs: 100 });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it("starts lazy modules concurrently when the guest awaits several through callAsync", async () => {
    // Each load finishes only once all three have started: loaded one after another, the first would wait for the
    // others for good and the run would end at its wall limit. (It used to be a 1 s load and a wall-clock margin,
    // which a loaded machine overran.)
    let loading = 0;
    let allStarted = (): void => undefined;
    const together = new Promise<void>((resolve) => (allStarted = resolve));
    const slowLoad = (name: string): HostModules[string] => ({
      lazy: true,
      load: async () => {
        if (++loading === 3) allStarted();
        await together;
        return { whoami: () => name };
      },
    });
    const modules: HostModules = { a: slowLoad("a"), b: slowLoad("b"), c: slowLoad("c") };
    const code = 'return await Promise.all(["a", "b", "c"].map((m) => __mcpvm.callAsync(m, "whoami", [])));';
    expect(valueOf(await run(engine, code, { modules, limits: { wallMs: 10_000 } }))).toEqual(["a", "b", "c"]);
    const mixed = 'const x = await __mcpvm.callAsync("a", "whoami", []); return [x, require("host:a").whoami(), Object.keys(require("host:b"))];';
    expect(valueOf(await run(engine, mixed, { modules }))).toEqual(["a", "a", ["whoami"]]);
  });

  it("keeps serving after runs stopped by a limit with an endless job queue: the worker restores its image (or, without one, is replaced), so the next runs never meet a crashing worker", async () => {
    const endless = "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});";
    for (let i = 0; i < 3; i++) {
      errorOf(await run(engine, endless, { limits: { cpuMs: 150, wallMs: 3_000 } }), "CPU_LIMIT");
      await expectHealthy(engine);
    }
  });

  // The CPU limit counts the guest's CPU, not the time other processes had its core: on a loaded
  // machine 2 s of it can take many times that on the clock, so the wall limit and the timeout are wide.
  it("keeps the host's event loop responsive while a guest spins", { timeout: 120_000 }, async () => {
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 10);
    try {
      errorOf(await run(engine, "while (true) {}", { limits: { cpuMs: 2_000, wallMs: 100_000 } }), "CPU_LIMIT");
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(5);
    // A guest on the main thread would block it for the whole 2 s.
    expect(longestGap).toBeLessThan(1_200);
  });

  it("terminates and replaces a worker whose guest never reaches an interrupt check", async () => {
    const started = Date.now();
    // Array.prototype.join over a huge sparse array runs entirely in native code.
    const error = errorOf(await run(engine, 'return Array(2 ** 27).join("").length;', { limits: { wallMs: 200, cpuMs: 60_000 } }), "WALL_LIMIT");
    expect(error.message).toContain("terminated");
    expect(Date.now() - started).toBeLessThan(3_000);
    await expectHealthy(engine);
  });

  it("queues runs beyond maxWorkers and still runs them all", async () => {
    const modules: HostModules = { m: { wait: async (args, context) => (await sleep(50, context.signal), args[0]) } };
    const runs = [1, 2, 3, 4, 5].map((n) => run(engine, `return require("host:m").wait(${n});`, { modules }));
    expect((await Promise.all(runs)).map(valueOf)).toEqual([1, 2, 3, 4, 5]);
  });

  it("cancels a run that is still waiting for a worker", async () => {
    // Both workers are taken (each run inside its host call) before the third run is asked for: on a
    // loaded machine the third, which needs no transform, could otherwise pass admission first.
    let arrived = 0;
    let bothInside = (): void => undefined;
    const inside = new Promise<void>((resolve) => (bothInside = resolve));
    const modules: HostModules = {
      m: {
        wait: async (_args, context) => {
          if (++arrived === 2) bothInside();
          await sleep(300, context.signal);
        },
      },
    };
    const busy = [1, 2].map(() => run(engine, 'require("host:m").wait();', { modules }));
    await inside;
    const controller = new AbortController();
    const queued = run(engine, "return 1;", { signal: controller.signal });
    controller.abort();
    errorOf(await queued, "CANCELLED");
    for (const result of await Promise.all(busy)) expect(result.ok).toBe(true);
  });

  it("serves fast host calls in order and stops them at the wall limit, whether workers may spin for replies or not", async () => {
    let calls = 0;
    const modules: HostModules = {
      m: {
        echo: (args) => (calls++, args[0]),
        later: (args) => new Promise((resolve) => setImmediate(() => resolve(args[0]))),
      },
    };
    const code = 'const m = require("host:m"); const seen = []; for (let i = 0; i < 300; i++) seen.push(i % 7 === 0 ? m.later(i) : m.echo(i)); return seen;';
    const expected = Array.from({ length: 300 }, (_, i) => i);
    for (const spinningWorkers of [0, 2]) {
      const tuned = await createQuickJsEngine({ spinningWorkers, maxWorkers: 2, warmWorkers: 2 });
      try {
        const results = await Promise.all([run(tuned, code, { modules }), run(tuned, code, { modules })]);
        for (const result of results) expect(valueOf(result)).toEqual(expected);
        const before = calls;
        const started = Date.now();
        errorOf(await run(tuned, 'const m = require("host:m"); for (;;) m.echo(1);', { modules, limits: { wallMs: 200 } }), "WALL_LIMIT");
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(calls - before).toBeGreaterThan(0);
      } finally {
        await tuned.dispose();
      }
    }
  });

  it("keeps replies and events in order when some fit the shared reply mailbox and some go by the port", async () => {
    const functions: HostModule = {
      // A burst of events sent back to back: the first fills the mailbox, the next wait on the port.
      emit: (_args, context: HostCallContext) => {
        for (let i = 0; i < 6; i++) context.notify?.(i % 2 === 1 ? "y".repeat(70_000) + String(i) : i);
        return "end";
      },
      echo: (args) => args[0],
      // Larger than the mailbox: always by the port.
      big: (args) => "z".repeat(80_000) + String(args[0]),
    };
    const modules: HostModules = { burst: { lazy: true, load: async () => functions, label: { title: "burst", member: "function", progress: true } } };
    const code = `
      const b = require("host:burst");
      const seen = [];
      const v = b.emit({ onProgress: (e) => seen.push(typeof e === "string" ? e.length + ":" + e.slice(-1) : e) });
      const many = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => __mcpvm.callAsync("burst", i % 3 ? "echo" : "big", [i])));
      const sync = [b.big(1).length, b.echo("é€😀"), b.echo(2)];
      return { v, seen, many: many.map((x) => (typeof x === "string" ? x.length + ":" + x.slice(-1) : x)), sync };`;
    expect(valueOf(await run(engine, code, { modules }))).toEqual({
      v: "end",
      seen: [0, "70001:1", 2, "70001:3", 4, "70001:5"],
      many: ["80001:0", 1, 2, "80001:3", 4, 5, "80001:6", 7],
      sync: [80_001, "é€😀", 2],
    });
  });

  it("replaces a worker whose wasm memory grew past the retirement size", async () => {
    const small = await createQuickJsEngine({ retireAboveBytes: 1 });
    try {
      for (let i = 0; i < 3; i++) expect(valueOf(await run(small, "return new Array(1000).fill(1).length;"))).toBe(1000);
    } finally {
      await small.dispose();
    }
  });
});
