import { describe, expect, it } from "vitest";
import { McpvmError } from "../../../src/util/errors.js";
import type { HostCallContext, HostModules } from "../../../src/sandbox/types.js";
import { errorOf, expectHealthy, run, sleep, valueOf, type EngineRef } from "./helpers.js";

class McpToolError extends McpvmError<"MCP_TOOL_ERROR"> {}

const math: HostModules = {
  math: {
    add: (args) => (args[0] as number) + (args[1] as number),
    slowDouble: async (args, context) => {
      await sleep(20, context.signal);
      return (args[0] as number) * 2;
    },
  },
};

export function contractTests(engine: EngineRef): void {
  describe("script body", () => {
    it("gives the top-level return value as the result", async () => {
      expect(valueOf(await run(engine(), 'return { n: 1, s: "x", a: [true, null], o: { deep: 2.5 } };'))).toEqual({
        n: 1,
        s: "x",
        a: [true, null],
        o: { deep: 2.5 },
      });
    });

    it("gives undefined when the script returns nothing", async () => {
      const result = await run(engine(), "const x = 1;");
      expect(result.ok).toBe(true);
      expect(valueOf(result)).toBeUndefined();
    });

    it("supports top-level await", async () => {
      expect(valueOf(await run(engine(), "const v = await Promise.resolve(20); return v + (await 1);"))).toBe(21);
    });
  });

  describe("host modules", () => {
    it("makes async host functions look synchronous to the guest", async () => {
      const result = await run(engine(), 'const m = require("host:math"); return m.slowDouble(m.add(2, 3));', { modules: math });
      expect(valueOf(result)).toBe(10);
      expect(result.stats.hostCalls).toBe(2);
    });

    it("groups dotted function names into namespace objects (a server module's resources and prompts)", async () => {
      const modules: HostModules = {
        files: {
          read: () => "tool",
          "resources.list": () => [{ uri: "file:///a" }],
          "resources.read": (args) => `content of ${String(args[0])}`,
        },
      };
      const code = `const files = require("host:files");
        const listed = files.resources.list();
        const viaAsync = await __mcpvm.callAsync("files", "resources.read", ["file:///b"]);
        return [files.read(), listed[0].uri, files.resources.read(listed[0].uri), viaAsync, Object.isFrozen(files.resources), Object.keys(files).sort()];`;
      expect(valueOf(await run(engine(), code, { modules }))).toEqual(["tool", "file:///a", "content of file:///a", "content of file:///b", true, ["read", "resources"]]);
    });

    it("serves synchronous host calls after an await and inside promise callbacks", async () => {
      const code = `const m = require("host:math");
        await null;
        const a = m.slowDouble(1);
        const b = await Promise.resolve(2).then((x) => m.slowDouble(x));
        return [a, b];`;
      expect(valueOf(await run(engine(), code, { modules: math }))).toEqual([2, 4]);
    });

    it("rewrites every static import form of host modules", async () => {
      const code = `import m from "host:math";
        import { add, slowDouble as twice } from "host:math";
        import * as ns from "host:math";
        import "host:math";
        return [m.add(1, 1), add(2, 2), twice(3), ns.add(4, 4)];`;
      expect(valueOf(await run(engine(), code, { modules: math }))).toEqual([2, 4, 6, 8]);
    });

    it("passes Uint8Array both ways, also nested", async () => {
      const seen: unknown[] = [];
      const modules: HostModules = {
        bin: {
          echo: (args) => {
            seen.push(args[0]);
            return { raw: Buffer.from([9, 8, 7]), copy: args[0] };
          },
        },
      };
      const code = `const r = require("host:bin").echo(new Uint8Array([0, 1, 255]));
        return { isBytes: r.raw instanceof Uint8Array && r.copy instanceof Uint8Array, raw: Array.from(r.raw), back: r.copy };`;
      const value = valueOf(await run(engine(), code, { modules })) as { isBytes: boolean; raw: number[]; back: Uint8Array };
      expect(seen[0]).toBeInstanceOf(Uint8Array);
      expect(Array.from(seen[0] as Uint8Array)).toEqual([0, 1, 255]);
      expect(value.isBytes).toBe(true);
      expect(value.raw).toEqual([9, 8, 7]);
      expect(value.back).toBeInstanceOf(Uint8Array);
      expect(Array.from(value.back)).toEqual([0, 1, 255]);
    });

    it("tells the host function its module, name, run signal and wall deadline", async () => {
      const contexts: HostCallContext[] = [];
      const modules: HostModules = { ctx: { probe: (_args, context) => void contexts.push(context) } };
      const before = Date.now();
      valueOf(await run(engine(), 'require("host:ctx").probe();', { modules, limits: { wallMs: 5_000 } }));
      const context = contexts[0] as HostCallContext;
      expect([context.module, context.fn]).toEqual(["ctx", "probe"]);
      expect(context.deadline).toBeGreaterThanOrEqual(before + 5_000);
      expect(context.deadline).toBeLessThanOrEqual(Date.now() + 5_000);
      // The run is over, so in-flight host work is told to stop.
      expect(context.signal.aborted).toBe(true);
    });

    it("runs __mcpvm.callAsync calls concurrently under Promise.all", async () => {
      let inFlight = 0;
      let peak = 0;
      const waiting: Array<() => void> = [];
      const modules: HostModules = {
        barrier: {
          // Resolves only once all three calls are in flight at the same time.
          meet: async (args) => {
            inFlight++;
            peak = Math.max(peak, inFlight);
            if (inFlight === 3) for (const release of waiting.splice(0)) release();
            else await new Promise<void>((resolve) => waiting.push(resolve));
            return args[0];
          },
        },
      };
      const code = 'return await Promise.all([1, 2, 3].map((n) => __mcpvm.callAsync("barrier", "meet", [n])));';
      expect(valueOf(await run(engine(), code, { modules, limits: { wallMs: 3_000 } }))).toEqual([1, 2, 3]);
      expect(peak).toBe(3);
    });

    it("loads a lazy module on first require, once per run", async () => {
      let loads = 0;
      const modules: HostModules = {
        late: { lazy: true, load: async () => (loads++, { hello: (args: readonly unknown[]) => `hi ${String(args[0])}` }) },
        broken: {
          lazy: true,
          load: () => Promise.reject(new McpToolError("MCP_TOOL_ERROR", "server mcp-broken did not start")),
        },
      };
      const code = `const a = require("host:late").hello("a");
        const b = await __mcpvm.callAsync("late", "hello", ["b"]);
        let failure;
        try { require("host:broken"); } catch (e) { failure = [e.name, e.code, e.message]; }
        return [a, b, failure];`;
      expect(valueOf(await run(engine(), code, { modules }))).toEqual([
        "hi a",
        "hi b",
        ["McpToolError", "MCP_TOOL_ERROR", "server mcp-broken did not start"],
      ]);
      expect(loads).toBe(1);
    });
  });

  describe("module resolution errors", () => {
    it("names the available modules when a host module is unknown", async () => {
      const error = errorOf(await run(engine(), 'require("host:nope");', { modules: math }), "GUEST_ERROR");
      expect(error.name).toBe("ModuleNotFoundError");
      expect(error.errorCode).toBe("MODULE_NOT_FOUND");
      expect(error.message).toContain('"host:nope"');
      expect(error.message).toContain("host:math");
    });

    it.each(["fs", "node:fs", "child_process"])("refuses the non-host specifier %s with a clear error", async (specifier) => {
      const error = errorOf(await run(engine(), `require(${JSON.stringify(specifier)});`), "GUEST_ERROR");
      expect(error.errorCode).toBe("MODULE_NOT_FOUND");
      expect(error.message).toContain("no Node.js modules");
    });

    it("refuses static imports of non-host modules the same way", async () => {
      const error = errorOf(await run(engine(), 'import { readFileSync } from "node:fs";\nreturn 1;'), "GUEST_ERROR");
      expect(error.errorCode).toBe("MODULE_NOT_FOUND");
    });
  });

  describe("host errors", () => {
    const failing: HostModules = {
      tool: {
        fail: () => {
          throw new McpToolError("MCP_TOOL_ERROR", "mcp-github.list_issues failed: rate limited");
        },
        crash: () => {
          throw new TypeError("plugin bug");
        },
        reject: () => Promise.reject("plain string"),
        bigint: () => 10n,
      },
    };

    it("become guest Errors that keep name, message and code", async () => {
      const code = `try { require("host:tool").fail(); } catch (e) { return [e instanceof Error, e.name, e.code, e.message]; }`;
      expect(valueOf(await run(engine(), code, { modules: failing }))).toEqual([
        true,
        "McpToolError",
        "MCP_TOOL_ERROR",
        "mcp-github.list_issues failed: rate limited",
      ]);
    });

    it("end the run as HOST_FUNCTION_ERROR when uncaught", async () => {
      const error = errorOf(await run(engine(), 'require("host:tool").fail();', { modules: failing }), "HOST_FUNCTION_ERROR");
      expect(error.name).toBe("McpToolError");
      expect(error.errorCode).toBe("MCP_TOOL_ERROR");
    });

    it("describe plain errors, non-errors and unsendable results", async () => {
      const code = `const t = require("host:tool"); const out = [];
        for (const f of ["crash", "reject", "bigint"]) { try { t[f](); } catch (e) { out.push([e.name, e.code, e.message]); } }
        try { await __mcpvm.callAsync("tool", "fail"); } catch (e) { out.push([e.name, e.code]); }
        return out;`;
      const value = valueOf(await run(engine(), code, { modules: failing })) as string[][];
      expect(value[0]).toEqual(["TypeError", "HOST_FUNCTION_ERROR", "plugin bug"]);
      expect(value[1]).toEqual(["Error", "HOST_FUNCTION_ERROR", "plain string"]);
      expect(value[2]?.slice(0, 2)).toEqual(["TypeError", "VALUE_NOT_SERIALIZABLE"]);
      expect(value[3]).toEqual(["McpToolError", "MCP_TOOL_ERROR"]);
    });
  });

  describe("console", () => {
    it("captures every level with readable formatting", async () => {
      const code = `console.log("a", 1, { b: [1, "two"] }, null, undefined, new Uint8Array([5]));
        console.info("i"); console.warn("w"); console.error(new RangeError("r")); console.debug([]);`;
      const result = await run(engine(), code);
      expect(result.ok).toBe(true);
      expect(result.logs.map((entry) => entry.level)).toEqual(["log", "info", "warn", "error", "debug"]);
      expect(result.logs[0]?.message).toBe('a 1 { b: [ 1, "two" ] } null undefined Uint8Array(1) [5]');
      expect(result.logs[3]?.message).toMatch(/^RangeError: r/);
      expect(result.logs[4]?.message).toBe("[]");
    });

    it("prints Maps, Sets, Dates and RegExps by their contents (each printed `{}` before), and errors without mcpvm's frames", async () => {
      const code = `console.log(new Map([[1, { a: "x" }], ["k", [2]]]), new Set([1, "two"]), new Map(), new Date(0), new Date(NaN), /a+b/gi);
        console.log({ deep: { deeper: { m: new Map([[1, 2]]) } } });
        console.log(new Error("shown"));
        Map = null; console.log(new Set([new Set()]));`;
      const result = await run(engine(), code, { filename: "task.js" });
      expect(result.ok).toBe(true);
      expect(result.logs[0]?.message).toBe('Map(2) { 1 => { a: "x" }, "k" => [ 2 ] } Set(2) { 1, "two" } Map(0) {} 1970-01-01T00:00:00.000Z Invalid Date /a+b/gi');
      expect(result.logs[1]?.message).toBe("{ deep: { deeper: { m: [Map] } } }");
      expect(result.logs[2]?.message).toMatch(/^Error: shown\n\s+at .*task\.js:3:/);
      expect(result.logs[2]?.message).not.toContain("mcpvm-");
      expect(result.logs[3]?.message).toBe("Set(1) { Set(0) {} }");
    });
  });

  describe("guest errors", () => {
    it("return the guest stack with the position of the throw", async () => {
      const code = "const x = 1;\nfunction fail() {\n  throw new TypeError('bad input');\n}\nfail();";
      const error = errorOf(await run(engine(), code, { filename: "task.js" }), "GUEST_ERROR");
      expect([error.name, error.message]).toEqual(["TypeError", "bad input"]);
      expect(error.stack).toMatch(/^TypeError: bad input\n/);
      expect(error.stack).toContain("task.js:3:");
      expect(error.line).toBe(3);
    });

    it("map columns on the first line back to the user's code", async () => {
      const first = errorOf(await run(engine(), "null.x;"), "GUEST_ERROR");
      const third = errorOf(await run(engine(), "\n\nnull.x;"), "GUEST_ERROR");
      expect(third.line).toBe(3);
      expect(first.line).toBe(1);
      expect(first.column).toBe(third.column);
    });

    it("report syntax errors with the user's line and column", async () => {
      const error = errorOf(await run(engine(), "const a = 1;\nconst b = 2;\nlet x = ;"), "SYNTAX_ERROR");
      expect([error.line, error.column]).toEqual([3, 9]);
      const first = errorOf(await run(engine(), "return )"), "SYNTAX_ERROR");
      expect([first.line, first.column]).toEqual([1, 8]);
    });

    it("refuse a result that is not JSON data", async () => {
      errorOf(await run(engine(), "return 10n;"), "RESULT_NOT_SERIALIZABLE");
      errorOf(await run(engine(), "const a = {}; a.self = a; return a;"), "RESULT_NOT_SERIALIZABLE");
    });

    it("report a script that awaits a promise nothing can settle", async () => {
      const error = errorOf(await run(engine(), "await new Promise(() => {});"), "GUEST_ERROR");
      expect(error.message).toContain("never settle");
    });
  });

  describe("prelude", () => {
    it("runs trusted setup code before the script in the same context", async () => {
      const prelude = `globalThis.tools = { math: { add: (a, b) => __mcpvm.callAsync("math", "add", [a, b]) } };`;
      expect(valueOf(await run(engine(), "return await tools.math.add(2, 40);", { modules: math, prelude }))).toBe(42);
    });

    it("reports its own failure as PRELUDE_ERROR", async () => {
      errorOf(await run(engine(), "return 1;", { prelude: "throw new Error('prelude bug');" }), "PRELUDE_ERROR");
    });
  });

  describe("cancellation", () => {
    it("cancels a run that never yields", async () => {
      // The in-thread engine runs the guest on this very thread: the cancel fires between its time
      // slices (src/sandbox/engines/quickjs-yield.ts).
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      errorOf(await run(engine(), "while (true) {}", { signal: controller.signal }), "CANCELLED");
      await expectHealthy(engine());
    });

    it("cancels a run waiting on a host call and aborts that call's signal", async () => {
      const controller = new AbortController();
      const reasons: unknown[] = [];
      const modules: HostModules = {
        m: {
          hang: async (_args, context) => {
            setTimeout(() => controller.abort(), 20);
            await sleep(10_000, context.signal);
            reasons.push((context.signal.reason as McpvmError).code);
          },
        },
      };
      errorOf(await run(engine(), 'require("host:m").hang();', { modules, signal: controller.signal }), "CANCELLED");
      await sleep(20);
      expect(reasons).toEqual(["CANCELLED"]);
    });

    it("does not start a run whose signal is already aborted", async () => {
      errorOf(await run(engine(), "return 1;", { signal: AbortSignal.abort() }), "CANCELLED");
    });
  });

  it("refuses invalid limits without running", async () => {
    const error = errorOf(await engine().run({ code: "return 1", limits: { cpuMs: -5 } }), "INVALID_REQUEST");
    expect(error.message).toContain("cpuMs");
  });

  it("reports run statistics", async () => {
    const result = await run(engine(), 'console.log("x"); return require("host:math").add(1, 2);', { modules: math });
    expect(result.stats).toMatchObject({ hostCalls: 1, droppedLogs: 0 });
    expect(result.stats.outputBytes).toBeGreaterThan(0);
    expect(result.stats.engine).toBe(engine().kind);
    expect(result.stats.wallMs).toBeGreaterThan(0);
  });
}
