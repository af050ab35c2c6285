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

    it("gives a sandbox built ahead while idle (its host-module and console pieces compiled) nothing of the run before", async () => {
      const modules: HostModules = { m: { echo: (args) => args[0] } };
      // The run before uses every piece, then spoils the built-ins those pieces and the runner rely on.
      const spoil = `const m = require("host:m"); console.log({ a: 1 }); m.echo(1);
        globalThis.leaked = 1; Object.prototype.polluted = true;
        JSON.stringify = () => "spoiled"; JSON.parse = () => "spoiled"; Object.keys = () => []; Array.isArray = () => false;
        return "spoiled";`;
      expect(valueOf(await run(engine(), spoil, { modules }))).toBe("spoiled");
      // Idle: the engine builds the next sandbox and compiles the pieces into it now.
      await sleep(150);
      const code = `const m = require("host:m");
        console.log({ a: [1, 2] }, "x");
        const bytes = m.echo(new Uint8Array([1, 2, 3]));
        const later = await __mcpvm.callAsync("m", "echo", [{ b: true }]);
        return [typeof leaked, typeof Object.prototype.polluted, m.echo({ c: [1] }), Array.from(bytes), later];`;
      const result = await run(engine(), code, { modules });
      expect(valueOf(result)).toEqual(["undefined", "undefined", { c: [1] }, [1, 2, 3], { b: true }]);
      expect(result.logs).toEqual([{ level: "log", message: "{ a: [ 1, 2 ] } x" }]);
    });

    it("compiles host modules with the built-ins of before the run's own code, when the run replaced them before its first require", async () => {
      const modules: HostModules = { m: { echo: (args) => args[0] } };
      const code = `JSON.stringify = () => "spoiled"; JSON.parse = () => "spoiled"; Object.keys = () => []; Array.isArray = () => false;
        Object.freeze = (x) => x; globalThis.Proxy = undefined;
        const m = require("host:m");
        let missing;
        try { m.nope(); } catch (error) { missing = error.code; }
        return [m.echo({ a: [1, "two"] }), missing];`;
      // Back to back, so some of these runs find a sandbox whose pieces were not compiled ahead.
      const results = await Promise.all([1, 2, 3].map(() => run(engine(), code, { modules })));
      for (const result of results) expect(valueOf(result)).toEqual([{ a: [1, "two"] }, "HOST_FUNCTION_NOT_FOUND"]);
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
