import { describe, expect, it } from "vitest";
import { unavailableHostModule, type HostModules } from "../../../src/sandbox/types.js";
import { McpvmError } from "../../../src/util/errors.js";
import { errorOf, run, valueOf, type EngineRef } from "./helpers.js";

/** A lazy module labelled the way the MCP service labels a server, with a by-name `$batch`. */
function server(calls: string[]): HostModules {
  return {
    "mcp-memory": {
      lazy: true,
      label: { title: 'server "memory"', member: "tool", byName: ["$batch"] },
      load: () =>
        Promise.resolve({
          read_graph: () => (calls.push("read_graph"), "graph"),
          search_nodes: () => (calls.push("search_nodes"), []),
          $batch: (args: readonly unknown[]) => (calls.push(`$batch:${String(args[0])}`), []),
        }),
    },
    plain: { readFile: () => "text", writeFile: () => true },
    "mcp-everything": unavailableHostModule({ message: 'server "everything" is disabled; enable it with `mcpvm mcp enable everything`', code: "MCP_SERVER_DISABLED" }),
    "fs-*": unavailableHostModule({ message: "plugin fs did not load: its approval is stale", code: "PLUGIN_APPROVAL_STALE" }),
  };
}

const SUGGESTED = 'server "memory" has no tool "read_grap"; did you mean read_graph?';

/** Errors guest code meets, worded in the guest (see guest-diagnostics.ts): the same on every engine. */
export function guestErrorTests(engine: EngineRef): void {
  describe("unknown functions and modules", () => {
    it.each([
      ["a property call", 'const m = require("host:mcp-memory");\nreturn m.read_grap({});'],
      ["a named import", 'import { read_grap } from "host:mcp-memory";\nreturn 1;'],
      ["callAsync", 'return await __mcpvm.callAsync("mcp-memory", "read_grap", [{}]);'],
      ["a by-name function", 'return require("host:mcp-memory").$batch("read_grap", [{}]);'],
    ])("names the module and suggests the closest tool for %s, without calling the host", async (_how, code) => {
      const calls: string[] = [];
      const error = errorOf(await run(engine(), code, { modules: server(calls) }), "GUEST_ERROR");
      expect(error.message).toBe(SUGGESTED);
      expect(error.name).toBe("TypeError");
      expect(error.errorCode).toBe("HOST_FUNCTION_NOT_FOUND");
      expect(calls).toEqual([]);
    });

    it("lists the module's functions when nothing is close, and says 'function' for an unlabelled module", async () => {
      const listed = errorOf(await run(engine(), 'require("host:mcp-memory").drop_database();', { modules: server([]) }), "GUEST_ERROR");
      expect(listed.message).toBe('server "memory" has no tool "drop_database" (its tools: read_graph, search_nodes)');
      const plain = errorOf(await run(engine(), 'require("host:plain").readFlie();', { modules: server([]) }), "GUEST_ERROR");
      expect(plain.message).toBe('host:plain has no function "readFlie"; did you mean readFile?');
    });

    it("lets code probe a module the way tools do (then, toJSON, in) without an error", async () => {
      const calls: string[] = [];
      const code = `const m = require("host:mcp-memory");
        const same = await m;
        return [typeof m.then, JSON.stringify(m), "read_graph" in m, "nope" in m, Object.keys(m), same === m, m.read_graph()];`;
      expect(valueOf(await run(engine(), code, { modules: server(calls) }))).toEqual([
        "undefined",
        "{}",
        true,
        false,
        ["read_graph", "search_nodes", "$batch"],
        true,
        "graph",
      ]);
      expect(calls).toEqual(["read_graph"]);
    });

    it("still runs a by-name function whose name is known", async () => {
      const calls: string[] = [];
      valueOf(await run(engine(), 'return require("host:mcp-memory").$batch("search_nodes", [{}]);', { modules: server(calls) }));
      expect(calls).toEqual(["$batch:search_nodes"]);
    });

    it("says why a module that cannot load is unavailable, by name or by prefix, without a host call", async () => {
      const disabled = await run(engine(), 'require("host:mcp-everything");', { modules: server([]) });
      const error = errorOf(disabled, "GUEST_ERROR");
      expect(error.message).toBe('host:mcp-everything: server "everything" is disabled; enable it with `mcpvm mcp enable everything`');
      expect(error.name).toBe("ModuleUnavailableError");
      expect(error.errorCode).toBe("MCP_SERVER_DISABLED");
      expect(error.line).toBe(1);
      expect(disabled.stats.hostCalls).toBe(0);
      const prefixed = errorOf(await run(engine(), 'import { read } from "host:fs-read";\nreturn read();', { modules: server([]) }), "GUEST_ERROR");
      expect(prefixed.message).toBe("host:fs-read: plugin fs did not load: its approval is stale");
      expect(prefixed.errorCode).toBe("PLUGIN_APPROVAL_STALE");
      const viaCallAsync = errorOf(await run(engine(), 'await __mcpvm.callAsync("mcp-everything", "echo", []);', { modules: server([]) }), "GUEST_ERROR");
      expect(viaCallAsync.errorCode).toBe("MCP_SERVER_DISABLED");
    });

    it("does not list unavailable modules as available, and suggests the closest module name", async () => {
      const code = 'return [Object.keys(__mcpvm.modules).length, __mcpvm.modules.join(","), (() => { try { require("host:mcp-memroy"); } catch (e) { return e.message; } })()];';
      const [, modules, message] = valueOf(await run(engine(), code, { modules: server([]) })) as [number, string, string];
      expect(modules).toBe("mcp-memory,plain");
      expect(message).toBe('Unknown host module "host:mcp-memroy"; did you mean host:mcp-memory? (available: host:mcp-memory, host:plain)');
    });
  });

  describe("thrown values", () => {
    it("keeps the user's frames with their lines and drops mcpvm's own", async () => {
      const code = 'function f() { g(); }\nfunction g() { throw new Error("boom"); }\nf();';
      const error = errorOf(await run(engine(), code, { filename: "throw.js" }), "GUEST_ERROR");
      expect(error.stack).toMatch(/^Error: boom\n\s+at g \(throw\.js:2:\d+\)\n\s+at f \(throw\.js:1:\d+\)/);
      expect(error.stack).not.toContain("mcpvm-");
      expect(error.line).toBe(2);
    });

    it("hides mcpvm's host-module frames (mcpvm-modules.js, never <input>) on every engine, first run or warm, and takes the line from the user's file", async (test) => {
      // Hyperlight compiles the pieces with eval inside its VM, where no file name can be given.
      if (engine().kind === "hyperlight") test.skip();
      const modules: HostModules = { plain: { fail: () => { throw new McpvmError("X_FAIL", "nope"); } } };
      // A user file whose name ends like the module piece's: its frames must still be told apart.
      const code = 'function outer() {\n  return require("host:plain").fail(1);\n}\nouter();';
      // Runs at once, so some take a sandbox built for them, with no piece compiled ahead.
      const results = await Promise.all(Array.from({ length: 6 }, () => run(engine(), code, { modules, filename: "modules.js" })));
      for (const result of results) {
        const error = errorOf(result, "HOST_FUNCTION_ERROR");
        // docs/USAGE.md: the message, then the script's own frames; mcpvm's are hidden.
        expect(error.stack).toMatch(/^McpvmError: nope\n\s+at outer \(modules\.js:2:\d+\)/);
        expect(error.stack).not.toContain("mcpvm-");
        expect(error.stack).not.toContain("<input>");
        expect([error.line, error.errorCode]).toEqual([2, "X_FAIL"]);
      }
      // The same error logged by the script: its own frames, not mcpvm's.
      const logged = await run(engine(), 'try { require("host:plain").fail(1); } catch (e) { console.log(e); }', { modules, filename: "caught.js" });
      expect(logged.logs[0]?.message).toMatch(/^McpvmError: nope\n\s+at <anonymous> \(caught\.js:1:\d+\)/);
      expect(logged.logs[0]?.message).not.toContain("mcpvm-");
    });

    it("a FinalizationRegistry callback that throws is a warning, not the failure of the run (once, with the user's line)", async () => {
      // Enough garbage that QuickJS collects the registered objects while the script still runs.
      const code = [
        'const registry = new FinalizationRegistry(() => { throw new Error("from cleanup"); });',
        "for (let i = 0; i < 200; i++) registry.register({ i }, i);",
        "let junk = []; for (let i = 0; i < 20000; i++) junk.push({ i }); junk = null;",
        'return "returned";',
      ].join("\n");
      const result = await run(engine(), code, { filename: "cleanup.js" });
      expect(valueOf(result)).toBe("returned");
      const warnings = result.logs.filter((log) => log.message.includes("FinalizationRegistry"));
      expect(warnings).toEqual([
        { level: "warn", message: "a FinalizationRegistry callback threw (the run went on; later ones are not shown): Error: from cleanup\n    at <anonymous> (cleanup.js:1)" },
      ]);
    });

    it("says a thrown string or object has no line and how to get one", async () => {
      const thrownString = errorOf(await run(engine(), 'throw "a string";'), "GUEST_ERROR");
      expect(thrownString.message).toBe('Uncaught "a string" (a string was thrown, not an Error, so there is no line number: `throw new Error(…)` gives one)');
      const thrownObject = errorOf(await run(engine(), "throw { code: 42 };"), "GUEST_ERROR");
      expect(thrownObject.message).toContain("Uncaught { code: 42 } (an object was thrown, not an Error");
    });
  });

  describe("syntax errors", () => {
    it("carry the file name, the position and a caret under the offending token", async () => {
      const error = errorOf(await run(engine(), "const a = 1;\nconst b = 2;\nconst c = a +* b;", { filename: "calc.js" }), "SYNTAX_ERROR");
      expect(error).toMatchObject({ file: "calc.js", line: 3, column: 14, message: "Unexpected token" });
      expect(error.snippet).toBe("3 | const c = a +* b;\n  |              ^");
    });

    it("call a script that stops short 'unexpected end of input', at its last character", async () => {
      const error = errorOf(await run(engine(), "const o = {\n  a: 1,\n"), "SYNTAX_ERROR");
      expect(error.message).toMatch(/^Unexpected end of input/);
      expect([error.line, error.column]).toEqual([2, 8]);
    });

    it("say TypeScript is not supported instead of 'Missing initializer'", async () => {
      const error = errorOf(await run(engine(), "const x: number = 1;\nreturn x;", { filename: "typed.ts" }), "SYNTAX_ERROR");
      expect(error.message).toMatch(/^TypeScript is not supported in a guest script: remove the type annotations/);
      expect([error.file, error.line]).toEqual(["typed.ts", 1]);
    });

    it("point import() at require or a static import", async () => {
      const error = errorOf(await run(engine(), 'const x = 1;\nconst m = await import("host:plain");'), "SYNTAX_ERROR");
      expect(error.message).toContain('use `require("host:…")`, or a static `import … from "host:…"`');
      expect([error.line, error.column]).toEqual([2, 17]);
    });
  });
}
