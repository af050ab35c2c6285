import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childPids, cli, everythingServer, fixtureServer, makeHome, memoryServer, readStarts, ROOT, type E2eHome } from "./helpers.js";

/**
 * The CLI face over the same stack: `mcpvm run` (text and --json) against real servers, its exit
 * codes, and `mcpvm mcp list/info/types`. Most commands run in-process through runCli with a
 * captured CliIo; one runs as a real process to show stdout carries nothing but the JSON record.
 */

const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");

let home: E2eHome;
const baseline = childPids().length;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      memory: { ...memoryServer(join(dir, "memory.jsonl")), description: "knowledge graph" },
      everything: everythingServer(),
      idle: fixtureServer(join(dir, "idle.starts")),
    }),
  });
  writeFileSync(
    join(home.dir, "remember.js"),
    `const memory = require("host:mcp-memory");
     memory.create_entities({ entities: [{ name: "ada", entityType: "person", observations: ["wrote the first program"] }] });
     console.log("stored", memory.read_graph({}).entities.length, "entity");
     return memory.open_nodes({ names: ["ada"] }).entities[0];`,
  );
});

afterAll(async () => {
  await home?.cleanup();
  // Every in-process CLI invocation closed its host and with it every server it started.
  expect(childPids()).toHaveLength(baseline);
});

describe("mcpvm run", () => {
  it("--json prints { ok, result, logs, stats } for a script calling server-memory (a real process)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [VITE_NODE, CLI_ENTRY, "--", "run", "--json", "--yes", "remember.js"], {
      cwd: home.dir,
      env: home.env,
    });
    const record = JSON.parse(stdout) as { ok: boolean; result: unknown; logs: unknown[]; stats: { engine: string; hostCalls: number } };
    expect(Object.keys(record)).toEqual(["ok", "result", "logs", "stats"]);
    expect(record.ok).toBe(true);
    expect(record.result).toEqual({ name: "ada", entityType: "person", observations: ["wrote the first program"] });
    expect(record.logs).toEqual([{ level: "log", message: "stored 1 entity" }]);
    expect(record.stats.engine).toBe("quickjs");
    expect(record.stats.hostCalls).toBeGreaterThanOrEqual(3);
  });

  it("prints the result as text on stdout and console output on stderr, exit 0", async () => {
    const out = await cli(home, ["run", "-"], `console.log("summing"); return require("host:mcp-everything").get_sum({ a: 1, b: 2 });`);
    expect(out).toMatchObject({ code: 0, stdout: "The sum of 1 and 2 is 3.\n" });
    expect(out.stderr).toContain("summing");
  });

  it("exits 1 when the script fails on a tool error, naming the error, server and tool", async () => {
    // --yes: the fixture's tools carry no annotations, so they count as destructive and are confirmed.
    const out = await cli(home, ["run", "--json", "--yes", "-"], `return require("host:mcp-idle").fail({ message: "on purpose" });`);
    expect(out.code).toBe(1);
    const record = JSON.parse(out.stdout) as { ok: boolean; error: { name: string; errorCode: string; message: string } };
    expect(record.ok).toBe(false);
    expect(record.error).toMatchObject({ name: "McpToolError", errorCode: "MCP_TOOL_ERROR" });
    expect(record.error.message).toContain("idle.fail");
    expect(record.error.message).toContain("fixture failure: on purpose");
  });

  it("declines a call that needs confirmation when nobody can confirm it (no TTY, no --yes)", async () => {
    const out = await cli(home, ["run", "--json", "-"], `return require("host:mcp-idle").fail({ message: "never sent" });`);
    expect(out.code).toBe(5); // approval needed: rerun with --yes
    const record = JSON.parse(out.stdout) as { ok: boolean; error: { name: string; errorCode: string; message: string } };
    expect(record).toMatchObject({ ok: false, error: { name: "McpCallDeclinedError", errorCode: "MCP_CALL_DECLINED" } });
    expect(record.error.message).toContain("idle.fail was not confirmed: no terminal to ask on, so nobody was asked; nothing was sent to the server");
    expect(record.error.message).not.toContain("declined");
    expect(out.stderr).toContain("Rerun with --yes");
  });

  it("exits 4 when the run hits a limit, waiting on an MCP call or not", async () => {
    const spin = await cli(home, ["run", "--timeout", "300ms", "-"], `while (true) {}`);
    expect(spin.code).toBe(4);
    const cpu = await cli(home, ["run", "--cpu", "200ms", "--json", "-"], `require("host:mcp-everything").echo({ message: "x" }); while (true) {}`);
    expect(cpu.code).toBe(4);
    expect(JSON.parse(cpu.stdout)).toMatchObject({ ok: false, error: { code: "CPU_LIMIT", limit: "cpuMs" } });
  });

  it("exits 5 when the mcp plugin is not enabled, and says how to enable it", async () => {
    const off = await makeHome({ servers: { memory: memoryServer(join(home.dir, "unused.jsonl")) }, mcpPlugin: false });
    try {
      const list = await cli(off, ["mcp", "list"]);
      expect(list.code).toBe(5);
      expect(list.stderr).toContain("[MCP_PLUGIN_NOT_ENABLED]");
      expect(list.stderr).toContain("mcpvm plugin approve mcp");
      // Without the plugin there is no MCP module at all: requiring one says why and what to run, and
      // exits 5 like a disabled server (MCP_SERVER_DISABLED): what it needs is approving and enabling, not a fix to the script.
      const run = await cli(off, ["run", "--json", "-"], `return require("host:mcp-memory");`);
      expect(run.code).toBe(5);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { errorCode: "PLUGIN_NOT_ENABLED", message: expect.stringContaining("mcpvm plugin enable mcp") } });
      // The `tools` global the README shows: not a bare "'tools' is not defined".
      const viaTools = await cli(off, ["run", "-"], "return tools.memory.read_graph({});");
      expect(viaTools.stderr).toContain("'tools' is not defined: the `tools` global (your MCP servers) exists while the mcp plugin is enabled; run `mcpvm plugin approve mcp && mcpvm plugin enable mcp`");
      expect(viaTools.stderr).not.toContain("ReferenceError: 'tools' is not defined\n");
    } finally {
      await off.cleanup();
    }
  });
});

describe("mcpvm mcp", () => {
  it("list: name, transport, state, approval, tool count and description, starting nothing", async () => {
    const startsBefore = readStarts(join(home.dir, "idle.starts"));
    const out = await cli(home, ["mcp", "list"]);
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+TRANSPORT\s+STATE\s+APPROVAL\s+TOOLS\s+DESCRIPTION$/);
    // The runs above started all three: their tool counts come from the recorded last connect.
    expect(lines.slice(1).map((l) => l.trimEnd().split(/\s{2,}/))).toEqual([
      ["everything", "stdio", "idle", "approved", expect.stringMatching(/^\d+$/)],
      ["idle", "stdio", "idle", "approved", expect.stringMatching(/^\d+$/)],
      ["memory", "stdio", "idle", "approved", "9", "knowledge graph"],
    ]);
    const json = JSON.parse((await cli(home, ["--json", "mcp", "list"])).stdout) as { servers: { name: string; state: string }[] };
    expect(json.servers.map((s) => [s.name, s.state])).toEqual([
      ["everything", "idle"],
      ["idle", "idle"],
      ["memory", "idle"],
    ]);
    expect(readStarts(join(home.dir, "idle.starts"))).toEqual(startsBefore);
  });

  it("info: the definition with env values masked, and the tools as signatures", async () => {
    const out = await cli(home, ["mcp", "info", "memory"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("memory (stdio) — approved");
    // A plain path is not a secret: shown, so the person sees where the graph is kept.
    expect(out.stdout).toContain(`"MEMORY_FILE_PATH": ${JSON.stringify(join(home.dir, "memory.jsonl"))}`);
    expect(out.stdout).toContain("Tools (9) — module host:mcp-memory");
    expect(out.stdout).toMatch(/\n {2}read_graph\(input\?: Record<string, unknown>\): \{/);
    expect(out.stdout).toMatch(/\n {2}create_entities\(input: \{ entities: /);
  });

  it("info --json: module, tool metadata and nothing held", async () => {
    const out = await cli(home, ["--json", "mcp", "info", "everything"]);
    const info = JSON.parse(out.stdout) as { module: string; tools: { jsName: string; originalName: string; hints: object }[]; held: unknown[] };
    expect(info.module).toBe("mcp-everything");
    expect(info.tools.find((t) => t.jsName === "get_sum")).toMatchObject({ originalName: "get-sum", hints: { readOnly: true, destructive: false } });
    // 13 tools, the two that server-everything offers only to a client that can answer elicitation, the one for a
    // client that can sample (the CLI can both, on a terminal; sampling with a configured model), and the one for a
    // client that offers roots (the working directory, or config.json's roots).
    expect(info.tools.map((t) => t.originalName)).toEqual(expect.arrayContaining(["trigger-elicitation-request", "trigger-url-elicitation", "trigger-sampling-request", "get-roots-list"]));
    expect(info.tools).toHaveLength(17);
    expect(info.held).toEqual([]);
  });

  it("types: the generated declarations of the server's module", async () => {
    const out = await cli(home, ["mcp", "types", "everything"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('declare module "host:mcp-everything" {');
    expect(out.stdout).toMatch(/export function get_sum\(input: GetSumInput\): unknown;|export function get_sum\(/);
    expect(out.stdout).toContain("Message to echo");
    expect(out.stdout).toContain("temperature");
  });
});
