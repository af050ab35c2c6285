import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-add-missing-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** The missing-command warnings among `--json`'s warnings (a fresh home also says the mcp plugin is off). */
const notFound = (warnings: readonly string[]): string[] => warnings.filter((w) => w.includes("is not found"));

async function add(args: readonly string[]) {
  const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH }, "", home);
  const code = await runCli(["mcp", "add", ...args], io);
  const config = JSON.parse(await readFile(join(home, "config.json"), "utf8")) as { mcpServers: Record<string, { command?: string }> };
  return { code, stdout: io.stdoutText(), stderr: io.stderrText(), servers: config.mcpServers };
}

/**
 * A program that is not installed used to be stored without a word, and the failure showed only at
 * the first call. It is still added (it may be installed later), with a warning now.
 */
describe("mcp add of a command that is not on PATH", () => {
  it("adds it, exits 0, and warns on stderr naming the command, the PATH folders and mcpvm doctor", async () => {
    const result = await add(["x", "--", "some-command-not-on-path-zz", "--flag"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.servers.x?.command).toBe("some-command-not-on-path-zz");
    expect(result.stdout).toContain("added x");
    expect(result.stderr).toContain('the command "some-command-not-on-path-zz" of server x is not found on PATH');
    const firstPathDir = (process.env.PATH ?? "").split(":").find((d) => d !== "") ?? "";
    expect(result.stderr).toContain(firstPathDir);
    expect(result.stderr).toContain("mcpvm doctor");
  });

  it("--json carries it in a warnings field, and stdout stays one JSON document", async () => {
    const result = await add(["--json", "x", "--", "some-command-not-on-path-zz"]);
    expect(result.code).toBe(ExitCode.Ok);
    const out = JSON.parse(result.stdout) as { added: string; warnings: string[] };
    expect(out.added).toBe("x");
    const missing = notFound(out.warnings);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain("some-command-not-on-path-zz");
    expect(missing[0]).toContain("mcpvm doctor");
  });

  it("an absolute path that does not exist is warned about too", async () => {
    const result = await add(["x", "--", "/nonexistent-zz/bin/server"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toContain('the command "/nonexistent-zz/bin/server" of server x is not found');
  });

  it("no warning for npx, node or an absolute path that exists", async () => {
    for (const command of [["npx", "-y", "pkg@1.0.0"], ["node", "-e", "0"], [process.execPath, "-e", "0"]]) {
      const result = await add(["--json", "--overwrite", "x", "--", ...command]);
      expect(result.code).toBe(ExitCode.Ok);
      expect(notFound((JSON.parse(result.stdout) as { warnings: string[] }).warnings)).toEqual([]);
      expect(result.stderr).toBe("");
    }
  });

  it("a PATH of the server's own that extends mcpvm's (${PATH}) is looked in, its variables filled in as at launch", async () => {
    // Before, a PATH with a variable was not read at all: the command, in the server's own folder, was called missing.
    const bin = join(home, "tools-bin");
    await mkdir(bin);
    await writeFile(join(bin, "my-tool-zz"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const found = await add(["--json", "x", "-e", `PATH=${bin}:\${PATH}`, "--", "my-tool-zz"]);
    expect(found.code).toBe(ExitCode.Ok);
    expect(notFound((JSON.parse(found.stdout) as { warnings: string[] }).warnings)).toEqual([]);
    // Still warned about when it is in none of the folders, which are named with the variable filled in.
    const missing = await add(["--json", "--overwrite", "x", "-e", `PATH=${bin}:\${PATH}`, "--", "other-tool-zz"]);
    const warning = notFound((JSON.parse(missing.stdout) as { warnings: string[] }).warnings);
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain(`${bin}, `);
    expect(warning[0]).not.toContain("${PATH}");
  });

  it("no warning for a command that names a ${VARIABLE} (known only when it starts)", async () => {
    const result = await add(["--json", "x", "--", "${MY_SERVER_BIN}"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect(notFound((JSON.parse(result.stdout) as { warnings: string[] }).warnings)).toEqual([]);
  });
});

/**
 * A new user who skips the tour's plugin step used to read "It will not start until you approve it", and
 * only the approve said the mcp plugin was off. `mcp add` now says so itself, and stops once it is on.
 */
describe("mcp add in a config home where the mcp plugin is off", () => {
  it("adds the server, says MCP is off and how to turn it on, and names enabling as a step before approving", async () => {
    const result = await add(["x", "--", process.execPath, "-e", "0"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toContain("MCP is off in this config home: the mcp plugin is not enabled");
    expect(result.stderr).toContain("`mcpvm plugin approve mcp` and `mcpvm plugin enable mcp`");
    expect(result.stdout).toContain("It will not start until the mcp plugin is enabled (above) and you approve it: `mcpvm mcp approve x`.");
    const json = await add(["--json", "--overwrite", "x", "--", process.execPath, "-e", "0"]);
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings.join("\n")).toContain("the mcp plugin is not enabled");
  });

  it("says nothing of it once the plugin is approved and enabled", async () => {
    for (const step of [["--yes", "plugin", "approve", "mcp"], ["plugin", "enable", "mcp"]]) {
      const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH }, "", home);
      expect(await runCli(step, io), io.stderrText()).toBe(ExitCode.Ok);
    }
    const result = await add(["x", "--", process.execPath, "-e", "0"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("It will not start until you approve it: `mcpvm mcp approve x`.");
  });
});
