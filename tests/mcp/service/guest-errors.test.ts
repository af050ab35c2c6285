import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOutput } from "../../../src/agent/tools/execute-javascript.js";
import type { McpvmHost } from "../../../src/host/index.js";
import { mcpHostModules } from "../../../src/mcp/service/index.js";
import { isLazyHostModule } from "../../../src/sandbox/types.js";
import { cli, errorOf, everythingServer, makeHome, memoryServer, valueOf, type E2eHome } from "../../e2e/helpers.js";

/**
 * The errors guest code meets with real MCP servers (server-memory, server-everything from npm),
 * through the whole stack: config -> mcp plugin -> host:mcp-<name> -> QuickJS -> `mcpvm run`.
 * One host serves the guest-level cases; the CLI cases run `mcpvm run` in-process on the same home.
 */

let home: E2eHome;
let host: McpvmHost;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      memory: memoryServer(join(dir, "memory.jsonl")),
      // Configured but never approved: requiring it must say how to approve it.
      pending: memoryServer(join(dir, "pending.jsonl")),
      everything: { ...everythingServer(), enabled: false },
    }),
    approve: ["memory"],
  });
  host = await home.open();
}, 60_000);

afterAll(async () => {
  await host?.close();
  await home?.cleanup();
});

const SUGGESTED = 'server "memory" has no tool "read_grap"; did you mean read_graph?';

describe("a tool that does not exist", () => {
  it.each([
    ["mod.x()", 'const memory = require("host:mcp-memory");\nreturn memory.read_grap({});'],
    ["tools.memory.x()", "return await tools.memory.read_grap({});"],
    ["a named import", 'import { read_grap } from "host:mcp-memory";\nreturn read_grap({});'],
    ['$batch("x", …)', 'return require("host:mcp-memory").$batch("read_grap", [{}]);'],
  ])("%s names the server and suggests the closest tool", async (_form, code) => {
    const error = errorOf(await host.run(code));
    expect(error.message).toBe(SUGGESTED);
    expect(error.name).toBe("TypeError");
  }, 30_000);

  it("lists the server's tools when nothing is close", async () => {
    const error = errorOf(await host.run('require("host:mcp-memory").drop_database({});'));
    expect(error.message).toMatch(/^server "memory" has no tool "drop_database" \(its tools: create_entities, .*read_graph/);
    expect(error.message).not.toContain("$batch");
  }, 30_000);

  it("is worded in the guest: the guest's own text is never masked, so masking cannot tell it which strings are secrets", async () => {
    // A host error quoting this name would pass the redactor and come back as ****; the guest would learn it is a secret.
    const secret = "s3cr3t-token-value-123456";
    host.redactor.add([secret]);
    const code = `try { require("host:mcp-memory").$batch(${JSON.stringify(secret)}, [{}]); } catch (e) { return e.message.includes(${JSON.stringify(secret)}); }`;
    expect(valueOf(await host.run(code))).toBe(true);
    // What leaves the run is masked as always.
    const escaped = errorOf(await host.run(`require("host:mcp-memory").$batch(${JSON.stringify(secret)}, [{}]);`));
    expect(escaped.message).not.toContain(secret);
  }, 30_000);

  it("when the host must answer (the guest's check bypassed), it names the tool only by length and suggests known names", async () => {
    const service = await host.requireMcp();
    const module = mcpHostModules(service)["mcp-memory"];
    if (module === undefined || !isLazyHostModule(module)) throw new Error("expected a lazy module for the memory server");
    const context = { signal: new AbortController().signal, deadline: Date.now() + 20_000 };
    const functions = await module.load(context);
    const batch = functions.$batch;
    if (batch === undefined) throw new Error("the memory module has no $batch");
    const call = (name: string) => Promise.resolve(batch([name, [{}]], { ...context, module: "mcp-memory", fn: "$batch" })).then(() => "", (e: Error) => e.message);
    const close = await call("read_grapx");
    expect(close).toBe('server "memory" has no tool by the 10-character name given (did you mean read_graph?).');
    const far = await call("sk-made-up-guest-text");
    expect(far).not.toContain("made-up");
    expect(far).toMatch(/by the 21-character name given \(its tools: create_entities, /);
  }, 30_000);

  it("an unknown server on the tools global suggests the closest", async () => {
    expect(errorOf(await host.run("await tools.memroy.read_graph({});")).message).toBe('tools has no server "memroy"; did you mean memory?');
  }, 30_000);
});

describe("a server that cannot be used", () => {
  const DISABLED = 'host:mcp-everything: server "everything" is disabled; enable it with `mcpvm mcp enable everything`';

  it.each([
    ["require", 'require("host:mcp-everything");'],
    ["a static import", 'import { echo } from "host:mcp-everything";\nreturn echo({ message: "hi" });'],
    ["the tools global", 'await tools.everything.echo({ message: "hi" });'],
  ])("a disabled server says so and names the command that enables it (%s)", async (_form, code) => {
    const error = errorOf(await host.run(code));
    expect(error.message.startsWith(DISABLED)).toBe(true);
    expect(error.errorCode).toBe("MCP_SERVER_DISABLED");
  }, 30_000);

  it("a server that needs approval names `mcpvm mcp approve`", async () => {
    const error = errorOf(await host.run('return require("host:mcp-pending").read_graph({});'));
    expect(error.errorCode).toBe("MCP_NOT_APPROVED");
    expect(error.message).toContain("`mcpvm mcp approve pending`");
    const run = await cli(home, ["run", "-"], 'return require("host:mcp-pending").read_graph({});');
    expect(run.code).toBe(5);
  }, 30_000);

  it("when the mcp plugin failed to load, requiring a server gives the plugin's load error, not 'Unknown host module'", async () => {
    const broken = await makeHome({ servers: (dir) => ({ memory: memoryServer(join(dir, "memory.jsonl")) }) });
    try {
      await writeFile(join(broken.dir, "approved-plugins.json"), "{ oops");
      const run = await cli(broken, ["run", "--json", "-"], 'return require("host:mcp-memory").read_graph({});');
      const { error } = JSON.parse(run.stdout) as { error: { name: string; message: string; errorCode: string } };
      expect(error.name).toBe("ModuleUnavailableError");
      expect(error.errorCode).toBe("PLUGIN_APPROVALS_CORRUPT");
      expect(error.message).toMatch(/^host:mcp-memory: plugin mcp did not load: .*approved-plugins\.json is not valid JSON/);
      expect(error.message).not.toContain("Unknown host module");
      expect(run.code).toBe(3);
    } finally {
      await broken.cleanup();
    }
  }, 60_000);
});

describe("mcpvm run shows errors and results a person can act on", () => {
  const run = (code: string, ...flags: string[]) => cli(home, ["run", ...flags, "-"], code);

  it("prints a thrown error's message once, with the user's frames and none of mcpvm's", async () => {
    const out = await run('function f() { g(); }\nfunction g() { throw new Error("boom"); }\nf();');
    expect(out.code).toBe(1);
    expect(out.stderr.match(/boom/g)).toHaveLength(1);
    expect(out.stderr).toMatch(/Error \[GUEST_ERROR\] at line 2, column \d+: boom\n\s+at g \(stdin\.js:2:\d+\)\n\s+at f \(stdin\.js:1:\d+\)/);
    expect(out.stderr).not.toContain("mcpvm-bootstrap");
  }, 30_000);

  it("shows the thrown error's own code, and exits by it", async () => {
    const unknown = await run('require("host:mcp-memory").read_grap({});');
    expect(unknown.stderr).toContain(`TypeError [HOST_FUNCTION_NOT_FOUND] at line 1, column 27: ${SUGGESTED}`);
    expect(unknown.code).toBe(1);
    const disabled = await run('require("host:mcp-everything");');
    expect(disabled.stderr).toContain("ModuleUnavailableError [MCP_SERVER_DISABLED] at line 1, column 8: host:mcp-everything: server \"everything\" is disabled");
    expect(disabled.code).toBe(5);
  }, 30_000);

  it("prints a thrown string once, saying why there is no line", async () => {
    const out = await run('throw "a string";');
    expect(out.stderr.match(/a string/g)).toHaveLength(2); // the value, and "a string was thrown"
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
  }, 30_000);

  it("shows a syntax error with the file name and a caret under the token", async () => {
    const out = await run("const a = 1;\nconst b = 2;\nconst c = a +* b;");
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("SyntaxError [SYNTAX_ERROR] at line 3, column 14 of stdin.js: Unexpected token\n3 | const c = a +* b;\n  |              ^\n");
  }, 30_000);

  it("hints at `return` when a script gives nothing and printed nothing", async () => {
    const out = await run("1 + 1;");
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("note: the script returned nothing; use `return …`");
    const logged = await run('console.log("done");');
    expect(logged.stderr).not.toContain("returned nothing");
  }, 30_000);

  it("says when the script returned a function", async () => {
    const out = await run("return () => 1;");
    expect(out.stderr).toContain("note: the script returned a function, which is not data");
  }, 30_000);

  it("prints a Map's entries with a note instead of {}, and --json carries the same notes", async () => {
    const code = 'return { graph: new Map([["nodes", 2]]) };';
    const text = await run(code);
    expect(JSON.parse(text.stdout)).toEqual({ graph: { nodes: 2 } });
    expect(text.stderr).toContain("note: result.graph was a Map: returned as an object of its entries");
    const json = JSON.parse((await run(code, "--json")).stdout) as { result: unknown; notes: string[] };
    expect(json.result).toEqual({ graph: { nodes: 2 } });
    expect(json.notes).toEqual(["result.graph was a Map: returned as an object of its entries"]);
    const plain = JSON.parse((await run("return 1;", "--json")).stdout) as Record<string, unknown>;
    expect(Object.keys(plain)).toEqual(["ok", "result", "logs", "stats"]);
  }, 30_000);

  it("gives the model the same notes with the converted result", async () => {
    const output = runOutput(await host.run('return { seen: new Set(["a"]) };'));
    expect(output).toMatchObject({ result: { seen: ["a"] }, notes: ["result.seen was a Set: returned as an array"] });
    expect(runOutput(await host.run("return 1;"))).not.toHaveProperty("notes");
  }, 30_000);

  it("prints bytes as base64 in text mode, with a note, and keeps --json's $bytes", async () => {
    const top = await run("return new Uint8Array([1, 2, 3]);");
    expect(top.stdout).toBe("AQID\n");
    expect(top.stderr).toContain("note: the result is 3 bytes, printed as base64");
    const nested = await run("return { png: new Uint8Array([1, 2, 3]) };");
    expect(JSON.parse(nested.stdout)).toEqual({ png: "base64:AQID" });
    const json = JSON.parse((await run("return new Uint8Array([1, 2, 3]);", "--json")).stdout) as { result: unknown };
    expect(json.result).toEqual({ $bytes: "AQID", length: 3 });
  }, 30_000);

  it("names the path of a BigInt and of a cycle", async () => {
    const big = await run("return { totals: { sum: 10n } };");
    expect(big.stderr).toContain("result.totals.sum is a BigInt (10n), which JSON cannot carry: return String(value) instead");
    const cycle = await run("const a = { child: {} }; a.child.parent = a; return a;");
    expect(cycle.stderr).toContain("result.child.parent refers back to result (a cycle)");
  }, 30_000);
});
