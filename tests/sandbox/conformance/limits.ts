import { describe, expect, it } from "vitest";
import type { McpvmError } from "../../../src/util/errors.js";
import type { HostModules } from "../../../src/sandbox/types.js";
import { errorOf, expectHealthy, MEMORY_TEST_LIMITS, run, sleep, valueOf, type EngineRef } from "./helpers.js";

export function limitTests(engine: EngineRef): void {
  describe("limits", () => {
    it("holds a sandbox built ahead while idle (its pieces compiled) to the run's own limits, each run's afresh", async () => {
      const modules: HostModules = { m: { echo: (args) => args[0] } };
      const cases: Array<[string, Record<string, number>, "CPU_LIMIT" | "MEMORY_LIMIT" | "OUTPUT_LIMIT"]> = [
        ['require("host:m").echo(1); for (;;) {}', { cpuMs: 150 }, "CPU_LIMIT"],
        ['require("host:m").echo(1); const keep = []; for (;;) keep.push(new Array(1e5).fill(1));', { memoryBytes: 8 * 1024 * 1024 }, "MEMORY_LIMIT"],
        ['require("host:m").echo(1); for (let i = 0; i < 1e5; i++) console.log("x".repeat(100));', { outputBytes: 4096 }, "OUTPUT_LIMIT"],
      ];
      for (const [code, limits, expected] of cases) {
        // Idle long enough for the engine to build the next sandbox and compile its pieces.
        await sleep(150);
        errorOf(await run(engine(), code, { modules, limits }), expected);
      }
      await sleep(150);
      await expectHealthy(engine());
    });

    it("fits host modules, console and the diagnostics in the smallest memory budget, compiled ahead or by the run itself", async () => {
      const modules: HostModules = { m: { echo: (args) => args[0] } };
      const code = 'console.log({ a: 1 }); let code; try { require("fs"); } catch (error) { code = error.code; } return [require("host:m").echo([1, 2]), code];';
      const limits = { memoryBytes: 1024 * 1024 };
      // Back to back (some runs compile the pieces themselves, under the budget), then after an idle pause.
      const results = [await run(engine(), code, { modules, limits }), await run(engine(), code, { modules, limits })];
      await sleep(150);
      results.push(await run(engine(), code, { modules, limits }));
      for (const result of results) expect(valueOf(result)).toEqual([[1, 2], "MODULE_NOT_FOUND"]);
    });

    it("ends a CPU-bound run with CPU_LIMIT naming the limit", async () => {
      const error = errorOf(await run(engine(), "let i = 0; while (true) { i++; }", { limits: { cpuMs: 150 } }), "CPU_LIMIT");
      expect(error.limit).toBe("cpuMs");
      expect(error.message).toContain("cpuMs = 150");
      await expectHealthy(engine());
    });

    // QuickJS asks for its limits once per 10,000 counted steps, whatever each step costs: a loop whose body
    // is one heavy built-in call was asked once per ~1,460 turns, and ran 93 s past cpuMs = 1000 in-thread
    // (quickjs-heap.ts, InterruptPace).
    it("ends a loop of heavy built-in calls at its CPU limit, not thousands of turns later", async () => {
      const code = 'const text = "ab".repeat(50000); for (;;) text.split("").reverse().join("");';
      const started = Date.now();
      const error = errorOf(await run(engine(), code, { limits: { cpuMs: 300, wallMs: 60_000 } }), "CPU_LIMIT");
      expect(error.limit).toBe("cpuMs");
      expect(Date.now() - started).toBeLessThan(5_000);
      await expectHealthy(engine());
    });

    it("counts host calls against one wall budget and aborts the call that would outlive it", async () => {
      const reasons: unknown[] = [];
      const modules: HostModules = {
        m: {
          hang: async (_args, context) => {
            await sleep(10_000, context.signal);
            reasons.push((context.signal.reason as McpvmError).code);
          },
        },
      };
      const started = Date.now();
      const error = errorOf(await run(engine(), 'require("host:m").hang();', { modules, limits: { wallMs: 300 } }), "WALL_LIMIT");
      expect(error.limit).toBe("wallMs");
      expect(error.message).toContain("wallMs = 300");
      expect(Date.now() - started).toBeLessThan(3_000);
      await sleep(20);
      expect(reasons).toEqual(["WALL_LIMIT"]);
      await expectHealthy(engine());
    });

    it("ends a run of many short host calls when their total exceeds the wall budget", async () => {
      const modules: HostModules = { m: { tick: async (_args, context) => void (await sleep(5, context.signal)) } };
      const code = 'for (;;) { await __mcpvm.callAsync("m", "tick"); require("host:m").tick(); }';
      errorOf(await run(engine(), code, { modules, limits: { wallMs: 300, cpuMs: 5_000 } }), "WALL_LIMIT");
      await expectHealthy(engine());
    });

    it("ends a run that exhausts its memory with MEMORY_LIMIT", async () => {
      const code = "const keep = []; for (;;) keep.push([1, 2, 3, 4, 5, 6, 7, 8]);";
      const error = errorOf(await run(engine(), code, { limits: { ...MEMORY_TEST_LIMITS, memoryBytes: 8 * 1024 * 1024 } }), "MEMORY_LIMIT");
      expect(error.limit).toBe("memoryBytes");
      await expectHealthy(engine());
    });

    it("counts many medium allocations, not only one huge one, against the memory budget", async () => {
      // 40 x 2 MB typed arrays and 640 x 100 KB strings: each allocation is small, the total is not. Both totals
      // (80 and 64 MB) pass the budget plus the most a reused heap can hold free at a run's start (about 30 MiB,
      // docs/SECURITY.md): 400 strings (40 MB) fitted in 16 MiB + a heap an earlier run had grown, now and then.
      for (const code of [
        "const keep = []; for (let i = 0; i < 40; i++) { const a = new Uint8Array(2e6); a.fill(1); keep.push(a); } return keep.length;",
        "const keep = []; for (let i = 0; i < 640; i++) keep.push('x'.repeat(100000) + i); return keep.length;",
      ]) {
        const error = errorOf(await run(engine(), code, { limits: { memoryBytes: 16 * 1024 * 1024, wallMs: 10_000 } }), "MEMORY_LIMIT");
        expect(error.limit).toBe("memoryBytes");
      }
      await expectHealthy(engine());
    });

    it("refuses the allocation that would take a run past its memory budget, even between two interrupt checks", async (context) => {
      // QuickJS checks limits every ~10,000 backward jumps or calls, and a loop of large allocations
      // needs far fewer to fill the heap: checked only there, an 8 MiB run grew the heap to its hard
      // maximum (512 MiB). The guest sees the refused allocation as QuickJS's out-of-memory error;
      // catching it does not save the run.
      if (engine().kind === "hyperlight") {
        context.skip();
        return;
      }
      const code = `const keep = []; let caught = "none";
        try { for (let i = 0; i < 400; i++) keep.push(new Uint8Array(1048576)); } catch (error) { caught = String(error); }
        console.log(keep.length, caught); return keep.length;`;
      const result = await run(engine(), code, { limits: { memoryBytes: 8 * 1024 * 1024, wallMs: 30_000 } });
      const error = errorOf(result, "MEMORY_LIMIT");
      expect(error.limit).toBe("memoryBytes");
      // The check right after a slow step (the interrupt pace, quickjs-heap.ts) may end the run before the
      // guest reaches its log; when it does log, it caught the refusal with the heap near its budget.
      expect(result.logs.length).toBeLessThanOrEqual(1);
      if (result.logs.length === 1) {
        const [held, caught] = String(result.logs[0]?.message ?? "").split(" ");
        // 8 MiB of budget plus the memory free in the heap when the run started (at most ~30 MiB).
        expect(Number(held)).toBeGreaterThanOrEqual(8);
        expect(Number(held)).toBeLessThan(40);
        expect(caught).toMatch(/InternalError|RangeError/);
      }
      await expectHealthy(engine());
    });

    it("lets a run that needs just under its memory budget finish, even where the heap's next growth step would cross it", async (context) => {
      // QuickJS's heap grows to 1.2 x its size when the allocator needs more. Counting that headroom
      // as the run's memory failed these runs (96 % and 98 % of a 256 MiB budget, 1 MiB at a time:
      // the heap stepped from ~247 to ~296 MiB, past the start's ~16 MiB + 256 MiB).
      if (engine().kind === "hyperlight") {
        context.skip();
        return;
      }
      const budget = 256;
      for (const share of [0.96, 0.98]) {
        const count = Math.floor(budget * share);
        const code = `const keep = []; for (let i = 0; i < ${count}; i++) keep.push(new Uint8Array(1048576 - 64)); return keep.length;`;
        expect(valueOf(await run(engine(), code, { limits: { memoryBytes: budget * 1024 * 1024, wallMs: 30_000, cpuMs: 30_000 } }))).toBe(count);
      }
      // The same allocations over the budget (past the memory free in the heap when the run starts) still fail.
      const over = `const keep = []; for (let i = 0; i < ${budget * 1.25}; i++) keep.push(new Uint8Array(1048576 - 64)); return keep.length;`;
      const error = errorOf(await run(engine(), over, { limits: { memoryBytes: budget * 1024 * 1024, wallMs: 30_000, cpuMs: 30_000 } }), "MEMORY_LIMIT");
      expect(error.limit).toBe("memoryBytes");
      await expectHealthy(engine());
    });

    it("ends a host call made from a full heap with MEMORY_LIMIT, and a run waiting beside it on the same thread goes on", async (context) => {
      // The asyncify builds malloc the buffer a suspended stack is saved into, and the host's answer,
      // in the guest's heap: unchecked, a full heap had them written at address 0, which crashed the
      // shared worker thread (and every run on it) or, in the in-thread engine, the process.
      if (engine().kind === "hyperlight") {
        context.skip();
        return;
      }
      let release: (() => void) | undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const modules: HostModules = {
        m: {
          wait: async () => {
            await held;
            return "waited";
          },
          answer: async () => {
            await sleep(1);
            return "x".repeat(1_500_000);
          },
        },
      };
      const companion = run(engine(), 'return require("host:m").wait();', { modules, limits: { wallMs: 60_000 } });
      await sleep(50);
      // Freeing some blocks first leaves room for the saved stack but not for the answer, or for neither.
      for (const freed of [0, 30, 60]) {
        const code = `const keep = []; try { for (;;) keep.push(new Array(4096).fill(1)); } catch {}
          for (let i = 0; i < ${freed}; i++) keep.pop();
          return require("host:m").answer().length + keep.length;`;
        const error = errorOf(await run(engine(), code, { modules, limits: { memoryBytes: 16 * 1024 * 1024, wallMs: 30_000 } }), "MEMORY_LIMIT");
        expect(error.limit).toBe("memoryBytes");
      }
      release?.();
      expect(valueOf(await companion)).toBe("waited");
      await expectHealthy(engine());
    });

    it("ends a run whose result exceeds the output budget", async () => {
      const error = errorOf(await run(engine(), 'return "x".repeat(5000);', { limits: { outputBytes: 4096 } }), "OUTPUT_LIMIT");
      expect(error.limit).toBe("outputBytes");
      await expectHealthy(engine());
    });

    // The runner's `then` asks the script's own Promise subclass (species) to build its promise, so the
    // script can rewrite the envelope text the host reads: the budget must not rest on its key order.
    it.each([
      ["with its keys reordered", '\'{"value":"\' + big + \'","ok":true}\''],
      ["carrying notes first", '\'{"ok":true,"notes":["n"],"value":"\' + big + \'"}\''],
    ])("ends a result over the output budget whose envelope the script rewrote %s", async (_label, forged) => {
      const code = `const big = "x".repeat(20000);
        class Forge extends Promise {
          constructor(executor) { super((resolve, reject) => executor((text) => resolve(typeof text === "string" ? ${forged} : text), reject)); }
        }
        Promise.prototype.constructor = Forge;
        return "small";`;
      const result = await run(engine(), code, { limits: { outputBytes: 4096 } });
      expect(errorOf(result, "OUTPUT_LIMIT").limit).toBe("outputBytes");
      await expectHealthy(engine());
    });

    it("counts logs and result together against the output budget", async () => {
      const code = 'console.log("y".repeat(3000)); return "x".repeat(3000);';
      const result = await run(engine(), code, { limits: { outputBytes: 4096 } });
      errorOf(result, "OUTPUT_LIMIT");
      expect(result.logs).toHaveLength(1);
    });
  });
}
