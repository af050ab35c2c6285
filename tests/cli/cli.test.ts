import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-cli-"));
});
afterAll(async () => rm(home, { recursive: true, force: true }));

const env = () => ({ MCPVM_HOME: home, PATH: process.env.PATH });

describe("mcpvm (the CLI)", () => {
  it("prints usage with --help and exits 0", async () => {
    const io = captureIo(env());
    expect(await runCli(["--help"], io)).toBe(ExitCode.Ok);
    expect(io.stdoutText()).toContain("Usage: mcpvm [global options] <command> [args]");
    expect(io.stdoutText()).toContain("run ");
  });

  it("rejects an unknown command with a usage error (exit 2)", async () => {
    const io = captureIo(env());
    expect(await runCli(["frobnicate"], io)).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain('unknown command "frobnicate"');
  });

  it("rejects an unknown flag and names the command", async () => {
    const io = captureIo(env());
    expect(await runCli(["run", "--bogus", "x.js"], io)).toBe(ExitCode.Usage);
    expect(io.stderrText()).toMatch(/run: .*--bogus/);
  });

  it("runs a script from stdin and prints its result", async () => {
    const io = captureIo(env(), 'console.log("hello"); return { n: await Promise.resolve(6 * 7) };');
    expect(await runCli(["run", "-"], io)).toBe(ExitCode.Ok);
    expect(JSON.parse(io.stdoutText())).toEqual({ n: 42 });
    expect(io.stderrText()).toContain("hello");
  });

  it("prints the whole record with --json", async () => {
    const io = captureIo(env(), "return [1, 2];");
    expect(await runCli(["--json", "run", "-"], io)).toBe(ExitCode.Ok);
    const record = JSON.parse(io.stdoutText());
    expect(record).toMatchObject({ ok: true, result: [1, 2], logs: [] });
    expect(record.stats.engine).toBe("quickjs");
  });

  it("exits 1 on a guest error and reports line and column of a syntax error", async () => {
    const file = join(home, "broken.js");
    await writeFile(file, "const a = 1;\nconst = 2;\n");
    const io = captureIo(env());
    expect(await runCli(["run", file], io)).toBe(ExitCode.GuestError);
    expect(io.stderrText()).toMatch(/SYNTAX_ERROR\] at line 2/);
  });

  it("exits 4 when a limit ends the run", async () => {
    const io = captureIo(env(), "while (true) {}");
    expect(await runCli(["run", "-", "--timeout", "300ms"], io)).toBe(ExitCode.Limit);
    expect(io.stderrText()).toMatch(/LIMIT/);
  });

  it("exits 5 when MCP is used before the mcp plugin is enabled", async () => {
    const io = captureIo(env());
    expect(await runCli(["mcp", "list"], io)).toBe(ExitCode.ApprovalRequired);
    expect(io.stderrText()).toContain("mcpvm plugin approve mcp && mcpvm plugin enable mcp");
  });

  it("refuses to approve a plugin without a terminal unless --yes is given", async () => {
    const io = captureIo(env());
    expect(await runCli(["plugin", "approve", "fs-read"], io)).toBe(ExitCode.ApprovalRequired);
    expect(io.stderrText()).toContain("Rerun with --yes");
    const yes = captureIo(env());
    expect(await runCli(["plugin", "approve", "fs-read", "--yes"], yes)).toBe(ExitCode.Ok);
    expect(yes.stdoutText()).toContain("approved fs-read");
  });

  // The description, hints and module list go to the model once the plugin is on; the person approving
  // it read only the audit before, while an MCP server's description is shown (and audited) at approval.
  it("shows what the model will read (description, modules, hints) before asking to approve a plugin", async () => {
    const manifest = JSON.parse(await readFile(join(process.cwd(), "plugins", "fs-write", "plugin.json"), "utf8")) as { description: string; hints: string[] };
    const io = captureIo(env());
    expect(await runCli(["plugin", "approve", "fs-write"], io)).toBe(ExitCode.ApprovalRequired);
    const shown = io.stderrText();
    expect(shown).toContain(manifest.description);
    expect(shown).toContain("host:fs-write");
    for (const hint of manifest.hints) expect(shown).toContain(hint);
    expect(shown.indexOf(manifest.description)).toBeLessThan(shown.indexOf("Not approved"));
  });

  it("lists plugins as JSON", async () => {
    const io = captureIo(env());
    expect(await runCli(["plugin", "list", "--json"], io)).toBe(ExitCode.Ok);
    const names = JSON.parse(io.stdoutText()).plugins.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["fetch", "fs-read", "fs-write", "mcp"]));
  });

  it("reports an invalid config file with its path and the rule, exit 3", async () => {
    const bad = await mkdtemp(join(tmpdir(), "mcpvm-cli-bad-"));
    try {
      await writeFile(join(bad, "config.json"), JSON.stringify({ limits: { wallMs: -5 } }));
      const io = captureIo({ MCPVM_HOME: bad, PATH: process.env.PATH });
      expect(await runCli(["run", "-"], io)).toBe(ExitCode.Config);
      expect(io.stderrText()).toContain("config.json is not valid");
      expect(io.stderrText()).toContain("limits.wallMs");
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
