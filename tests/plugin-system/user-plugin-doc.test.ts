import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";
import { extractBlocks } from "../docs/extract.js";
import { parseShLine } from "../docs/sh-line.js";

const ROOT = join(import.meta.dirname, "../..");
const run = promisify(execFile);

/**
 * docs/PLUGINS.md, "A user plugin, step by step", as a new user follows it: the two files written into
 * the config home as the page shows them, its command lines run through the real CLI, then the edit
 * that makes the approval stale. A plain-JS plugin could not load before (a registration without a
 * zod `configSchema` was refused), and its private copy made Node warn on every run.
 */
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-user-plugin-"));
  await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs" }));
});
afterAll(async () => rm(home, { recursive: true, force: true }));

async function mcpvm(argv: readonly string[]) {
  const io = captureIo({ MCPVM_HOME: home, HOME: home, PATH: process.env.PATH }, "", home);
  const code = await runCli([...argv], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

async function docBlocks(): Promise<{ manifest: string; entry: string; commands: string[] }> {
  const text = await readFile(join(ROOT, "docs/PLUGINS.md"), "utf8");
  const mine = extractBlocks("docs/PLUGINS.md", text).filter(
    (b) => typeof b.annotation === "object" && b.annotation.options.get("by") === "tests/plugin-system/user-plugin-doc.test.ts",
  );
  const [manifest, entry, sh] = mine;
  expect(mine.map((b) => b.language)).toEqual(["json", "js", "sh"]);
  return { manifest: manifest!.code, entry: entry!.code, commands: sh!.code.split("\n").filter((l) => l.trim() !== "") };
}

describe("docs/PLUGINS.md: a user plugin, step by step", () => {
  it("writes, approves, enables and uses the plain-JS plugin; an edit needs a new approval", async () => {
    const { manifest, entry, commands } = await docBlocks();
    const dir = join(home, "plugins", "greet");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "plugin.json"), manifest);
    await writeFile(join(dir, "index.js"), entry);

    const outputs: Array<Awaited<ReturnType<typeof mcpvm>>> = [];
    for (const line of commands) {
      for (const command of parseShLine(line, home)) {
        // The reader answers y when approve asks; --yes does the same without a terminal.
        const argv = command.argv[0] === "plugin" && command.argv[1] === "approve" ? [...command.argv, "--yes"] : command.argv;
        const out = await mcpvm(argv);
        expect(out.code, `${argv.join(" ")}\n${out.stderr}`).toBe(ExitCode.Ok);
        outputs.push(out);
      }
    }
    const last = outputs.at(-1)!;
    expect(last.stdout).toBe("hello, Ada\n");
    expect(last.stderr).toBe("");

    // The private copy the plugin ran from loads in a fresh Node without MODULE_TYPELESS_PACKAGE_JSON.
    const [copy] = await readdir(join(home, "plugin-code"));
    const loaded = await run(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(join(home, "plugin-code", copy!, "index.js")).href)})`]);
    expect(loaded.stderr).toBe("");
    // A copy an older mcpvm wrote (its package.json `{}`) is written again, not kept with the warning.
    await writeFile(join(home, "plugin-code", copy!, "package.json"), "{}\n");
    expect((await mcpvm(["run", "-e", 'return require("host:greet").hello("Ada")'])).stdout).toBe("hello, Ada\n");
    expect(JSON.parse(await readFile(join(home, "plugin-code", copy!, "package.json"), "utf8"))).toEqual({ type: "module" });

    // A config key for a plugin that declares none is named.
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs", plugins: { greet: { enabled: true, config: { greting: "hi" } } } }));
    const keyed = await mcpvm(["run", "-e", 'return require("host:greet").hello("Ada")']);
    expect(keyed.stderr).toContain("plugins.greet.config");
    expect(keyed.stderr).toContain("greting");
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs", plugins: { greet: { enabled: true } } }));

    await writeFile(join(dir, "index.js"), entry.replace("hello, ", "hi, "));
    const stale = await mcpvm(["run", "-e", 'return require("host:greet").hello("Ada")']);
    expect(stale.code).toBe(ExitCode.ApprovalRequired);
    expect(stale.stderr).toContain("PLUGIN_APPROVAL_STALE");
    const list = (await mcpvm(["plugin", "list"])).stdout;
    expect(list, list).toMatch(/greet\s+changed since approval/);
  }, 60_000);
});
