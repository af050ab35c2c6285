import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, makeHome, memoryServer, type E2eHome } from "../e2e/helpers.js";

/**
 * Every name a person types gets a did-you-mean when it is close to a real one: commands,
 * subcommands, flags, servers, toolsets, profiles, plugins. The aliases people bring from other
 * CLIs work (mcp ls/rm/get, mcpvm version/-v), and `--help` on a subcommand shows its own page.
 * Nothing here starts an MCP server.
 */
let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ memory: memoryServer(join(dir, "memory.jsonl")), notes: memoryServer(join(dir, "notes.jsonl")) }) });
});
afterAll(async () => home?.cleanup());

describe("commands and global flags", () => {
  it("an unknown command suggests the close one (mcpvm rn -> run), exit 2", async () => {
    const out = await cli(home, ["rn"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unknown command "rn"; did you mean "run"? Run `mcpvm --help` for the list.');
  });

  it("an unknown global flag is an unknown option, not an unknown command", async () => {
    const out = await cli(home, ["--bogus", "doctor"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("mcpvm: unknown option --bogus");
    expect(out.stderr).not.toContain("unknown command");
    expect((await cli(home, ["--jsno", "doctor"])).stderr).toContain("did you mean --json?");
  });

  it("`mcpvm version` and `-v` print the version like --version", async () => {
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };
    for (const argv of [["version"], ["-v"], ["--version"]]) expect(await cli(home, argv)).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("with --json the version is JSON, {\"version\": …}, in either order (`--json` promises machine-readable output)", async () => {
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };
    for (const argv of [["--json", "--version"], ["--version", "--json"], ["--json", "version"], ["--json", "-v"]]) {
      const out = await cli(home, argv);
      expect(out.code, argv.join(" ")).toBe(0);
      expect(JSON.parse(out.stdout), argv.join(" ")).toEqual({ version });
    }
  });

  it("bin/mcpvm.js answers --version, -v and version without loading the CLI (a real process, no dist/ beside it)", async () => {
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };
    // A copy of the launcher with package.json and no build: only the fast path can answer.
    const copy = await mkdtemp(join(tmpdir(), "mcpvm-bin-"));
    try {
      await mkdir(join(copy, "bin"));
      await copyFile(join(import.meta.dirname, "../../bin/mcpvm.js"), join(copy, "bin", "mcpvm.js"));
      await copyFile(join(import.meta.dirname, "../../package.json"), join(copy, "package.json"));
      for (const flag of ["--version", "-v", "version"]) {
        const { stdout } = await promisify(execFile)(process.execPath, [join(copy, "bin", "mcpvm.js"), flag]);
        expect(stdout).toBe(`${version}\n`);
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it("`mcpvm help <unknown>` is an unknown command with a suggestion", async () => {
    const out = await cli(home, ["help", "toolsets"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('did you mean "toolset"?');
  });
});

describe("subcommands", () => {
  it("mcp lst / plugin lst / profile aply / toolset shw suggest the subcommand, exit 2", async () => {
    const cases: [string[], string][] = [
      [["mcp", "lst"], 'mcpvm mcp: unknown command "lst"; did you mean "list"?'],
      [["plugin", "lst"], 'did you mean "list"?'],
      [["profile", "aply"], 'did you mean "apply"?'],
      [["toolset", "shw"], 'did you mean "show"?'],
    ];
    for (const [argv, text] of cases) {
      const out = await cli(home, argv);
      expect(out.code, argv.join(" ")).toBe(2);
      expect(out.stderr).toContain(text);
    }
  });

  it("mcp ls, get and rm are list, info and remove", async () => {
    const ls = await cli(home, ["mcp", "ls"]);
    expect(ls.code).toBe(0);
    expect(ls.stdout).toMatch(/memory/);
    // `get` reaches info: an unknown name is info's error, not "unknown command get".
    const get = await cli(home, ["mcp", "get", "nosuch"]);
    expect(get.stderr).toContain('No MCP server named "nosuch"');
    const rm = await cli(home, ["mcp", "rm", "notes"]);
    expect(rm).toMatchObject({ code: 0 });
    expect(rm.stdout).toContain("removed notes");
    expect(JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")).mcpServers).not.toHaveProperty("notes");
  });

  it("`mcp list extra` is refused like `doctor extra`", async () => {
    const out = await cli(home, ["mcp", "list", "extra"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unexpected argument "extra"');
  });
});

describe("names of servers, toolsets, profiles and plugins", () => {
  it("a misspelt server gets a did-you-mean, exit 2 (approve, enable, remove, info)", async () => {
    for (const sub of ["approve", "info", "enable", "remove"]) {
      const out = await cli(home, ["mcp", sub, "memroy"]);
      expect(out.code, sub).toBe(2);
      expect(out.stderr, sub).toContain('did you mean "memory"?');
    }
  });

  it("a misspelt profile, plugin and toolset get a did-you-mean, exit 2", async () => {
    const profile = await cli(home, ["profile", "apply", "strickt"]);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('no profile named "strickt"; did you mean "strict"?');
    const show = await cli(home, ["profile", "show", "defualt"]);
    expect(show.code).toBe(2);
    expect(show.stderr).toContain('did you mean "default"?');
    const plugin = await cli(home, ["plugin", "info", "fs-rea"]);
    expect(plugin.code).toBe(2);
    expect(plugin.stderr).toContain('no plugin named "fs-rea"; did you mean "fs-read"?');
    expect((await cli(home, ["toolset", "build", "notes", "memory.read_graph"])).code).toBe(0);
    const toolset = await cli(home, ["toolset", "show", "note"]);
    expect(toolset.code).toBe(2);
    expect(toolset.stderr).toContain('no toolset named "note"; did you mean "notes"?');
    // Told in CLI terms, not the gateway tool's name.
    expect(toolset.stderr).not.toContain("build-toolset");
  });
});

describe("help pages", () => {
  it("`mcp --help` lists remove; `mcp add --help` and `mcp import --help` have their own page with examples", async () => {
    const mcp = await cli(home, ["--help"]);
    expect(mcp.stdout).toMatch(/mcp\s+Manage MCP servers: .*remove/);
    const add = await cli(home, ["mcp", "add", "--help"]);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/^Usage: mcpvm mcp add/);
    expect(add.stdout).toMatch(/Examples?:/);
    const imp = await cli(home, ["mcp", "import", "--help"]);
    expect(imp.stdout).toMatch(/^Usage: mcpvm mcp import <file>/);
    expect(imp.stdout).toContain("Examples:");
    expect(imp.stdout).not.toContain("Usage: mcpvm mcp <command>");
    // The same pages from `mcpvm help mcp import` and `mcpvm mcp help import`.
    expect((await cli(home, ["help", "mcp", "import"])).stdout).toBe(imp.stdout);
    expect((await cli(home, ["mcp", "help", "import"])).stdout).toBe(imp.stdout);
  });

  it("--help after -- belongs to the server's command, not to mcpvm", async () => {
    const out = await cli(home, ["mcp", "add", "echo", "--", "node", "server.js", "--help"]);
    expect(out.stdout).not.toContain("Usage:");
    expect(out.code).toBe(0);
  });
});
