import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolsetCommand } from "../../src/cli/commands/toolset.js";
import { colours } from "../../src/terminal/io.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";

function run(home: string, args: string[], json = false) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  const env = { MCPVM_HOME: home };
  const code = toolsetCommand.run(args, {
    io: { stdin: new PassThrough(), stdout, stderr, env, cwd: home },
    colours: colours({}, env),
    host: () => Promise.reject(new Error("not needed without --check")),
    interactive: false,
    assumeYes: true,
    json,
  });
  return code.then((exit) => ({ exit, out }));
}

describe("mcpvm toolset", () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "mcpvm-toolset-cli-"));
    const server = { command: process.execPath, args: ["server.mjs"], cwd: home };
    await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { git: server, memory: server } }), { mode: 0o600 });
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it("builds, lists, shows and deletes toolsets from the shell", async () => {
    expect((await run(home, ["list"])).out).toContain("No toolsets yet");
    expect(await run(home, ["build", "dev", "git.status", "memory.read_graph", "--description", "daily"])).toEqual({ exit: ExitCode.Ok, out: "Saved toolset dev (2 tools).\n" });
    expect((await run(home, ["list"])).out).toMatch(/NAME\s+TOOLS\s+DESCRIPTION\ndev\s+2\s+daily/);
    const shown = JSON.parse((await run(home, ["show", "dev"], true)).out) as { toolset: { tools: string[] } };
    expect(shown.toolset.tools).toEqual(["git.status", "memory.read_graph"]);
    expect(await run(home, ["delete", "dev"])).toEqual({ exit: ExitCode.Ok, out: "Deleted toolset dev.\n" });
    await expect(run(home, ["show", "dev"])).rejects.toMatchObject({ code: "GATEWAY_TOOLSET_UNKNOWN" });
  });

  it("refuses bad usage with a usage error", async () => {
    await expect(run(home, ["build", "dev"])).rejects.toMatchObject({ code: "USAGE" });
    await expect(run(home, ["frobnicate"])).rejects.toMatchObject({ code: "USAGE" });
    // What was typed on the command line breaks a rule: a usage error (2, docs/USAGE.md), not a config one (3).
    await expect(run(home, ["build", "dev", "nodot"])).rejects.toMatchObject({ code: "USAGE", message: expect.stringMatching(/tools\[0\]: tool references look like "server\.tool"[\s\S]*Nothing was saved/) });
    await expect(run(home, ["build", "my notes", "memory.read_graph"])).rejects.toMatchObject({ code: "USAGE", message: expect.stringMatching(/name: toolset names are[\s\S]*Nothing was saved/) });
    await expect(readFile(join(home, "toolsets.json"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a tool of a server that is not configured, with a did-you-mean, and saves nothing", async () => {
    await expect(run(home, ["build", "dev", "memory.read_graph", "memroy.search_nodes"])).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/no MCP server named "memroy".*did you mean "memory"\?.*Nothing was saved/),
    });
    await expect(readFile(join(home, "toolsets.json"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("mcpvm toolset build --check", () => {
  it("does not save a toolset whose check fails (exit 6), and says why", async () => {
    const { runCli } = await import("../../src/cli/main.js");
    const { captureIo } = await import("../support/cli-io.js");
    const home = await mkdtemp(join(tmpdir(), "mcpvm-toolset-check-"));
    try {
      const env = { MCPVM_HOME: home, PATH: process.env.PATH };
      const server = { command: process.execPath, args: ["server.mjs"], cwd: home };
      await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { memory: server } }), { mode: 0o600 });
      expect(await runCli(["--yes", "plugin", "approve", "mcp"], captureIo(env))).toBe(0);
      expect(await runCli(["plugin", "enable", "mcp"], captureIo(env))).toBe(0);
      const io = captureIo(env);
      const code = await runCli(["toolset", "build", "notes", "memory.read_graph", "--check"], io);
      expect(code, io.stderrText()).toBe(ExitCode.Unavailable);
      expect(io.stderrText()).toMatch(/Not saved: 1 of the tools cannot be resolved[\s\S]*memory\.read_graph/);
      await expect(readFile(join(home, "toolsets.json"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("speaks only of the servers the toolset names: other unapproved servers are not warned about", async () => {
    const { runCli } = await import("../../src/cli/main.js");
    const { captureIo } = await import("../support/cli-io.js");
    const home = await mkdtemp(join(tmpdir(), "mcpvm-toolset-check-"));
    try {
      const env = { MCPVM_HOME: home, PATH: process.env.PATH };
      const server = { command: process.execPath, args: ["server.mjs"], cwd: home };
      await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { memory: server, github: server, slack: server } }), { mode: 0o600 });
      expect(await runCli(["--yes", "plugin", "approve", "mcp"], captureIo(env))).toBe(0);
      expect(await runCli(["plugin", "enable", "mcp"], captureIo(env))).toBe(0);
      const io = captureIo(env);
      expect(await runCli(["toolset", "build", "notes", "memory.read_graph", "--check"], io)).toBe(ExitCode.Unavailable);
      expect(io.stderrText()).toContain("memory is not approved");
      expect(io.stderrText()).not.toMatch(/github|slack/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe("mcpvm toolset build without --check", () => {
  it("warns about a tool the server's approved (pinned) tools do not have, with a did-you-mean, and starts nothing; a clean show --check says so", async () => {
    const { cli, makeHome, memoryServer } = await import("../e2e/helpers.js");
    const home = await makeHome({ servers: (dir) => ({ memory: memoryServer(join(dir, "memory.jsonl")) }) });
    try {
      // One call pins memory's tools, as the first use of a server does.
      expect((await cli(home, ["mcp", "call", "memory", "read_graph"])).code).toBe(0);
      const typo = await cli(home, ["toolset", "build", "notes", "memory.read_grap", "memory.search_nodes"]);
      expect(typo.code, typo.stderr).toBe(ExitCode.Ok);
      expect(typo.stdout).toBe("Saved toolset notes (2 tools).\n");
      expect(typo.stderr).toContain('memory.read_grap: memory has no approved tool "read_grap"; did you mean "read_graph"?');
      expect(typo.stderr).not.toContain("search_nodes");
      const right = await cli(home, ["toolset", "build", "notes", "memory.read_graph"]);
      expect([right.code, right.stderr]).toEqual([ExitCode.Ok, ""]);
      // --check that finds nothing wrong says so (it printed the plain listing, as without --check).
      const checked = await cli(home, ["toolset", "show", "notes", "--check"]);
      expect(checked.code).toBe(ExitCode.Ok);
      expect(checked.stdout).toContain("checked: every tool resolves (1 of 1)");
    } finally {
      await home.cleanup();
    }
  });
});
