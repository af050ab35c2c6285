import { describe, expect, it } from "vitest";
import type { HostModules } from "../../../src/sandbox/types.js";
import { errorOf, expectHealthy, run, sleep, valueOf, type EngineRef } from "./helpers.js";

/** The same probe, run several times so that every warm sandbox an engine keeps is looked at. */
async function expectCleanRuns(engine: EngineRef, times = 3): Promise<void> {
  const probe = `return [typeof leaked, typeof Object.prototype.polluted, typeof [].push, typeof globalThis.tools];`;
  for (let i = 0; i < times; i++) expect(valueOf(await run(engine(), probe))).toEqual(["undefined", "undefined", "function", "undefined"]);
}

export function isolationTests(engine: EngineRef): void {
  describe("isolation between runs", () => {
    it("starts every run with fresh globals and intrinsics", async () => {
      valueOf(await run(engine(), "globalThis.mark = 100; Array.prototype.push = null; Object.prototype.evil = 1;"));
      expect(valueOf(await run(engine(), "return [typeof Object.prototype.evil, typeof [].push];"))).toEqual(["undefined", "function"]);
      await expectHealthy(engine());
    });

    it("does not carry a prelude's globals into the next run", async () => {
      valueOf(await run(engine(), "return typeof tools;", { prelude: "globalThis.tools = { x: 1 };" }));
      await expectCleanRuns(engine);
    });

    it("leaves nothing behind from a run that ended with promise jobs still queued", async () => {
      // The script returns at once, but the job queue never drains: the run ends on its CPU budget.
      const code = `globalThis.leaked = 1; Object.prototype.polluted = true; Array.prototype.push = null;
        (async () => { for (;;) await null; })();
        return 1;`;
      errorOf(await run(engine(), code, { limits: { cpuMs: 150 } }), "CPU_LIMIT");
      const started = Date.now();
      await expectCleanRuns(engine);
      // A queue inherited from the previous run would spin until each of these hit its own CPU limit.
      expect(Date.now() - started).toBeLessThan(1_500);
    });

    it("ignores replies to host calls that a finished run left in flight", async () => {
      const modules: HostModules = {
        m: {
          slow: async (_args, context) => (await sleep(60, context.signal), "late"),
          now: (args) => args[0],
        },
      };
      expect(valueOf(await run(engine(), 'globalThis.leaked = 1; __mcpvm.callAsync("m", "slow", []); return "first";', { modules }))).toBe("first");
      const code = 'const m = require("host:m"); const a = m.now("a"); const b = await __mcpvm.callAsync("m", "now", ["b"]); return [a, b];';
      for (let i = 0; i < 3; i++) expect(valueOf(await run(engine(), code, { modules }))).toEqual(["a", "b"]);
      await sleep(80);
      expect(valueOf(await run(engine(), code, { modules }))).toEqual(["a", "b"]);
      await expectCleanRuns(engine);
    });

    it("keeps concurrent runs apart", async () => {
      const runs = [1, 2, 3, 4].map((id) =>
        run(engine(), `globalThis.mark = ${id}; const v = require("host:m").wait(${id}); return [mark, v];`, {
          modules: { m: { wait: async (args, context) => (await sleep(30 * (5 - id), context.signal), args[0]) } },
        }),
      );
      expect((await Promise.all(runs)).map(valueOf)).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
      ]);
    });
  });
}
