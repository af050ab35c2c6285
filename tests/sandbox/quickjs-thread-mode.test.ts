import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import type { HostCallContext, HostModules, SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, run, valueOf } from "./conformance/helpers.js";

/**
 * The worker engine in thread mode (`mcpvm run`'s), chosen here explicitly: the conformance suite runs
 * it only under MCPVM_QUICKJS_WORKERS=thread. Since wave 32 its sandboxes (and their image) hold the
 * bootstrap's first step, a run configures with its manifest's first line and asks for the tables when
 * it first needs them, and a thread's listeners outlive its runs (each run attaches to them).
 */
describe("quickjs engine, thread mode", () => {
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await createQuickJsEngine({ workerMode: "thread", warmWorkers: 1, maxWorkers: 2, killGraceMs: 100 });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it("gives every run the globals fresh: what one run defines or changes is gone in the next, and each gets its own manifest", async () => {
    const modules: HostModules = { first: { hello: () => "one" } };
    const probe = "const had = [typeof leaked, typeof console.log, typeof require, __mcpvm.modules.join()]; globalThis.leaked = 1; console.log = null; return had;";
    expect(valueOf(await run(engine, probe, { modules }))).toEqual(["undefined", "function", "function", "first"]);
    for (let i = 0; i < 4; i++) expect(valueOf(await run(engine, probe, { modules: { [`m${i}`]: { x: () => i } } }))).toEqual(["undefined", "function", "function", `m${i}`]);
  });

  it("reads the module table and the tools table on first use, from the run's own manifest", async () => {
    const modules: HostModules = { echo: { say: (args) => `said ${String(args[0])}` }, other: { ping: () => "pong" } };
    const code = 'const a = require("host:echo").say("hi"); const b = await tools.o.ping(); return [a, b, Object.keys(require("host:other"))];';
    expect(valueOf(await run(engine, code, { modules, toolsGlobal: { e: "echo", o: "other" } }))).toEqual(["said hi", "pong", ["ping"]]);
    errorOf(await run(engine, 'return require("host:echo").say("x");', { modules: { other: { ping: () => "pong" } } }), "GUEST_ERROR");
  });

  it("hands host calls a signal that is live while the run lasts, in a run after runs that made none", async () => {
    for (let i = 0; i < 3; i++) valueOf(await run(engine, "return 1;"));
    const seen: boolean[] = [];
    let signal: AbortSignal | undefined;
    const modules: HostModules = {
      probe: {
        check: (_args: readonly unknown[], context: HostCallContext) => {
          signal = context.signal;
          seen.push(context.signal.aborted);
          return true;
        },
      },
    };
    expect(valueOf(await run(engine, 'const p = require("host:probe"); return [p.check(), p.check()];', { modules }))).toEqual([true, true]);
    expect(seen).toEqual([false, false]);
    // The run is over: what its host calls were handed is aborted.
    expect(signal?.aborted).toBe(true);
  });

  it("routes each result to its own run, after a stopped run and with runs on both threads at once (listeners outlive runs)", async () => {
    errorOf(await run(engine, "for (;;) {}", { limits: { wallMs: 200, cpuMs: 60_000 } }), "WALL_LIMIT");
    const results = await Promise.all([1, 2, 3, 4].map((n) => run(engine, `console.log("run ${n}"); return ${n} * 10;`)));
    expect(results.map(valueOf)).toEqual([10, 20, 30, 40]);
    expect(results.map((result) => result.logs.map((entry) => entry.message))).toEqual([["run 1"], ["run 2"], ["run 3"], ["run 4"]]);
  });
});
