import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinProfiles } from "../../src/agent/profiles/builtin.js";
import { commandTable } from "../../src/cli/commands/index.js";
import { COMPLETION_SCRIPTS } from "../../src/cli/completion/scripts.js";
import { BUILTIN_PROFILE_NAMES, COMMANDS, GLOBAL_FLAGS, LOG_LEVEL_NAMES, VALUE_FLAGS } from "../../src/cli/completion/spec.js";
import { runCli } from "../../src/cli/main.js";
import { LOG_LEVELS } from "../../src/logging/logger.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";
import { fixtureServer, makeHome, memoryServer, readStarts, ROOT, type E2eHome } from "../e2e/helpers.js";

let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({ memory: memoryServer(join(dir, "memory.json")), fixture: fixtureServer(join(dir, "fixture.starts")) }),
    approve: ["memory"],
  });
  // Pins come from a real first connection of memory (approval, listing, audit), as they do for a user.
  const host = await home.open();
  try {
    await (await host.requireMcp()).catalog("memory");
  } finally {
    await host.close();
  }
  const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as Record<string, unknown>;
  await writeFile(join(home.dir, "config.json"), JSON.stringify({ ...config, profiles: { work: { mcpServers: ["memory"] } } }, null, 2));
  const io = captureIo(home.env);
  expect(await runCli(["toolset", "build", "notes", "memory.read_graph"], io)).toBe(ExitCode.Ok);
}, 120_000);
afterAll(async () => home.cleanup());

async function complete(words: readonly string[], env: Record<string, string | undefined> = home.env): Promise<string[]> {
  const io = captureIo(env);
  expect(await runCli(["__complete", "--", ...words], io)).toBe(ExitCode.Ok);
  expect(io.stderrText()).toBe("");
  return io.stdoutText().split("\n").filter((line) => line !== "");
}

describe("mcpvm __complete (what the shell scripts ask)", () => {
  it("commands at the first word, without the hidden ones", async () => {
    const words = await complete([""]);
    expect(words).toEqual(expect.arrayContaining(["run", "mcp", "plugin", "serve", "toolset", "profile", "doctor", "completion"]));
    expect(words).not.toContain("repl");
    expect(words).not.toContain("__complete");
    expect(await complete(["to"])).toEqual(["toolset"]);
  });

  it("subcommands, then servers from config.json", async () => {
    expect(await complete(["mcp", ""])).toEqual(expect.arrayContaining(["list", "info", "approve", "add", "call", "remove", "import"]));
    expect(await complete(["mcp", "info", ""])).toEqual(["fixture", "memory"]);
    expect(await complete(["mcp", "approve", "me"])).toEqual(["memory"]);
    expect(await complete(["--json", "mcp", "info", "fi"])).toEqual(["fixture"]);
  });

  it("tools from the pins and their argument names, without starting a server", async () => {
    const tools = await complete(["mcp", "call", "memory", ""]);
    expect(tools).toEqual(expect.arrayContaining(["read_graph", "create_entities", "search_nodes"]));
    expect(await complete(["mcp", "call", "memory", "read_g"])).toEqual(["read_graph"]);
    expect(await complete(["mcp", "call", "memory", "create_entities", ""])).toEqual(["entities="]);
    expect(await complete(["mcp", "call", "memory", "create_entities", "entities=[]", ""])).toEqual([]);
    // fixture is configured but was never approved or started: no pins, no tools, and still no start.
    expect(await complete(["mcp", "call", "fixture", ""])).toEqual([]);
    expect(readStarts(home.startsFile("fixture"))).toEqual([]);
  });

  it("flags of the command and subcommand, and the values of value flags", async () => {
    expect(await complete(["mcp", "add", "x", "--t"])).toEqual(["--transport"]);
    expect(await complete(["mcp", "add", "x", "--transport", ""])).toEqual(["stdio", "http", "sse"]);
    expect(await complete(["mcp", "add", "x", "-t", "h"])).toEqual(["http"]);
    expect(await complete(["run", "--"])).toEqual(expect.arrayContaining(["--timeout", "--memory", "--json"]));
    expect(await complete(["--engine=q"])).toEqual(["--engine=quickjs", "--engine=quickjs-inline"]);
    expect(await complete(["--log-level", "d"])).toEqual(["debug"]);
    // After `--` comes the server's own command line: nothing of ours (the shell offers files).
    expect(await complete(["mcp", "add", "x", "--", "node", ""])).toEqual([]);
  });

  it("catalog names, toolsets, server.tool references, profiles, plugins, shells", async () => {
    expect(await complete(["mcp", "add", "f"])).toEqual(["filesystem", "fetch"]);
    expect(await complete(["serve", "--toolset", ""])).toEqual(["notes"]);
    expect(await complete(["toolset", "show", ""])).toEqual(["notes"]);
    expect(await complete(["toolset", "build", "more", "memory.read"])).toEqual(["memory.read_graph"]);
    expect(await complete(["profile", "apply", "default", ""])).toEqual(["default", "long-running", "strict", "work"]);
    expect(await complete(["plugin", "approve", "f"])).toEqual(["fetch", "fs-read", "fs-write"]);
    expect(await complete(["completion", ""])).toEqual(["bash", "zsh", "fish"]);
  });

  it("a broken config.json gives no candidates and no error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-complete-broken-"));
    try {
      await writeFile(join(dir, "config.json"), '{"mcpServers": {"a": ');
      expect(await complete(["mcp", "info", ""], { MCPVM_HOME: dir })).toEqual([]);
      expect(await complete(["mcp", ""], { MCPVM_HOME: dir })).toContain("info");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the completion table matches the commands", async () => {
  const commands = (await commandTable()).filter((c) => c.name !== "repl");
  const longFlags = (text: string, self: string): string[] => {
    // Examples that run another command (`mcpvm serve --toolset x` in toolset's usage) are not this command's flags.
    const own = text.replace(/`mcpvm ([a-z-]+)[^`]*`/g, (span, name: string) => (name === self ? span : ""));
    return [...own.matchAll(/(?<![\w-])--[a-z][a-z-]+/g)].map((m) => m[0]);
  };

  it("has every command, and the same subcommands", () => {
    for (const command of commands) {
      const spec = COMMANDS[command.name];
      expect(spec, command.name).toBeDefined();
      if (command.subcommands !== undefined) expect(Object.keys(spec?.subcommands ?? {}).sort(), command.name).toEqual([...command.subcommands].sort());
    }
  });

  it("knows every flag the usage texts document, and which of them take a value", () => {
    // Collected, so one run lists everything src/cli/completion/spec.ts is missing.
    const missing: string[] = [];
    const valueFlagsMissing: string[] = [];
    const checkValues = (where: string, usage: string) => {
      for (const m of usage.matchAll(/(--[a-z][a-z-]+)(?: |=)<[^>]+>/g)) if (!Object.hasOwn(VALUE_FLAGS, m[1] as string)) valueFlagsMissing.push(`${where}: ${m[1]}`);
    };
    for (const command of commands) {
      const spec = COMMANDS[command.name];
      const subs = Object.entries(spec?.subcommands ?? {});
      const all = new Set([...(spec?.flags ?? []), ...subs.flatMap(([, sub]) => sub.flags ?? []), ...GLOBAL_FLAGS]);
      for (const flag of longFlags(command.usage, command.name)) if (!all.has(flag)) missing.push(`${command.name}: ${flag}`);
      checkValues(command.name, command.usage);
      for (const [name, sub] of subs) {
        // `mcpvm <command> <sub> --help` usage, where a command has one per subcommand.
        const usage = (command as { helpFor?: (args: readonly string[]) => string | undefined }).helpFor?.([name]);
        if (usage === undefined || usage === command.usage) continue;
        const own = new Set([...(sub.flags ?? spec?.flags ?? []), ...GLOBAL_FLAGS]);
        for (const flag of longFlags(usage, command.name)) if (!own.has(flag)) missing.push(`${command.name} ${name}: ${flag}`);
        checkValues(`${command.name} ${name}`, usage);
      }
    }
    expect(missing, "flags missing from COMMANDS in src/cli/completion/spec.ts").toEqual([]);
    expect(valueFlagsMissing, "flags taking a value missing from VALUE_FLAGS").toEqual([]);
  });

  it("has the real log levels and built-in profiles", () => {
    expect(LOG_LEVEL_NAMES).toEqual([...LOG_LEVELS]);
    expect([...BUILTIN_PROFILE_NAMES].sort()).toEqual(builtinProfiles().map((p) => p.name).sort());
  });
});

describe("mcpvm completion <shell>", () => {
  it("prints each script; an unknown shell is a usage error with a suggestion", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const io = captureIo(home.env);
      expect(await runCli(["completion", shell], io)).toBe(ExitCode.Ok);
      expect(io.stdoutText()).toBe(COMPLETION_SCRIPTS[shell]);
      expect(io.stdoutText()).toContain("__complete --");
    }
    const io = captureIo(home.env);
    expect(await runCli(["completion", "bas"], io)).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain('did you mean "bash"?');
  });

  it.skipIf(!existsSync("/bin/bash") && !existsSync("/usr/bin/bash"))("the bash script fills COMPREPLY from a real mcpvm", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-complete-bash-"));
    try {
      // `mcpvm` as the script finds it: the first word of the command line. Here it is the completion
      // entry bin/mcpvm.js routes __complete to, bundled from the sources (starting the whole CLI
      // through vite-node takes ~20 s per Tab on a loaded machine).
      const bundle = join(dir, "complete.mjs");
      await build({
        stdin: { contents: `import { runComplete } from ${JSON.stringify(join(ROOT, "src/cli/completion/complete.ts"))};\nprocess.exitCode = runComplete(process.argv.slice(3), process.env, process.stdout);\n`, resolveDir: ROOT, loader: "ts" },
        bundle: true,
        platform: "node",
        format: "esm",
        outfile: bundle,
        logLevel: "silent",
      });
      const shim = join(dir, "mcpvm");
      await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" "${bundle}" "$@"\n`);
      await chmod(shim, 0o755);
      const script = join(dir, "mcpvm.bash");
      await writeFile(script, COMPLETION_SCRIPTS.bash as string);
      const run = async (words: string, cword: number): Promise<string[]> => {
        const { stdout } = await promisify(execFile)(
          "bash",
          ["-c", `source "${script}"; COMP_WORDS=(${words}); COMP_CWORD=${cword}; _mcpvm_completion; printf '%s\\n' "\${COMPREPLY[@]}"`],
          { env: { ...process.env, ...home.env }, timeout: 60_000 },
        );
        return stdout.split("\n").filter((line) => line !== "");
      };
      expect(await run(`"${shim}" mcp info me`, 3)).toEqual(["memory"]);
      // bash splits --engine=q into "--engine" "=" "q"; the script glues them and completes the piece after "=".
      expect(await run(`"${shim}" --engine = q`, 3)).toEqual(["quickjs", "quickjs-inline"]);
      expect(await run(`"${shim}" mcp call memory read_g`, 4)).toEqual(["read_graph"]);
      // Typed as ~/mcpvm, the word reaches the function unexpanded (HOME is the test home here).
      await writeFile(join(home.dir, "mcpvm"), await readFile(shim, "utf8"), { mode: 0o755 });
      expect(await run(`'~/mcpvm' mcp info fi`, 3)).toEqual(["fixture"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
