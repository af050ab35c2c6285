import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { McpvmHost } from "../../../src/host/index.js";
import { ExitCode } from "../../../src/terminal/exit-codes.js";
import { captureIo, type CapturedIo } from "../../support/cli-io.js";

// `mcpvm mcp import` in-process against real files: a config home and a project folder in mkdtemp.
let home: string;
let project: string;
const env = () => ({ MCPVM_HOME: home, PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" });

async function writeConfig(servers: Record<string, unknown>): Promise<void> {
  await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs", plugins: { mcp: { enabled: true } }, mcpServers: servers }, null, 2));
}

async function configServers(): Promise<Record<string, Record<string, unknown>>> {
  return (JSON.parse(await readFile(join(home, "config.json"), "utf8")) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;
}

async function importFile(args: string[]): Promise<{ code: number; io: CapturedIo }> {
  const io = captureIo(env(), "", project);
  const code = await runCli(["mcp", "import", ...args], io);
  return { code, io };
}

async function writeProjectFile(relative: string, content: unknown): Promise<string> {
  const file = join(project, relative);
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-import-home-"));
  project = await mkdtemp(join(tmpdir(), "mcpvm-import-project-"));
  await writeConfig({});
  const host = await McpvmHost.open({ env: env() });
  try {
    await host.plugins.approve("mcp");
  } finally {
    await host.close();
  }
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

const WINDSURF = {
  mcpServers: {
    github: {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_PERSONAL_ACCESS_TOKEN>" },
      disabledTools: ["delete_repository", "push_files"],
    },
    deepwiki: { serverUrl: "https://mcp.deepwiki.com/mcp", disabled: true },
  },
};

describe("mcp import: Windsurf disabledTools and placeholders", () => {
  it("writes disabledTools as denyTools, so the tools the user switched off stay hidden", async () => {
    const file = await writeProjectFile("mcp_config.json", WINDSURF);
    const { code, io } = await importFile([file]);
    expect(code).toBe(ExitCode.Ok);
    const servers = await configServers();
    expect(servers.github?.denyTools).toEqual(["delete_repository", "push_files"]);
    expect(servers.deepwiki).toMatchObject({ type: "http", url: "https://mcp.deepwiki.com/mcp", enabled: false });
    expect(io.stderrText()).not.toContain("disabledTools");
  });

  it("warns about the placeholder token, naming the server and key and the ${VAR} form", async () => {
    const file = await writeProjectFile("mcp_config.json", WINDSURF);
    const { io } = await importFile([file]);
    expect(io.stderrText()).toContain(
      'secret github: env.GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_PERSONAL_ACCESS_TOKEN>" is a placeholder, not a value; write "GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_PERSONAL_ACCESS_TOKEN}" and set it in your environment',
    );
  });
});

const CLAUDE_DESKTOP = {
  mcpServers: {
    "brave-search": { command: "npx", args: ["-y", "@modelcontextprotocol/server-brave-search"], env: { BRAVE_API_KEY: "BSAq7fZ2kLm9Xw3RtY8uVbN4" } },
    "Notion API": { command: "npx", args: ["-y", "@notionhq/notion-mcp-server"], env: { OPENAPI_MCP_HEADERS: '{"Authorization": "Bearer ntn_4829fakeNotionToken77", "Notion-Version": "2022-06-28"}' } },
  },
  globalShortcut: "Ctrl+Space",
};

describe("mcp import: literal secrets", () => {
  it("--json never prints a secret value, and lists each literal secret with the ${VAR} form", async () => {
    const file = await writeProjectFile("claude_desktop_config.json", CLAUDE_DESKTOP);
    const { code, io } = await importFile([file, "--json"]);
    expect(code).toBe(ExitCode.Ok);
    const out = io.stdoutText();
    expect(out).not.toContain("BSAq7fZ2kLm9Xw3RtY8uVbN4");
    expect(out).not.toContain("ntn_4829fakeNotionToken77");
    const record = JSON.parse(out) as { servers: Record<string, { env: Record<string, string> }>; secrets: { name: string; field: string; message: string }[] };
    expect(record.servers["brave-search"]?.env).toEqual({ BRAVE_API_KEY: "****" });
    expect(record.secrets).toContainEqual({
      name: "brave-search",
      field: "env.BRAVE_API_KEY",
      kind: "secret",
      message: 'env.BRAVE_API_KEY: literal secret copied into config.json; prefer "BRAVE_API_KEY": "${BRAVE_API_KEY}" and set it in your environment',
    });
    expect(record.secrets.map((s) => `${s.name} ${s.field}`)).toContain("notion-api env.OPENAPI_MCP_HEADERS");
    // The file itself still gets the value: the server would not work otherwise.
    expect((await configServers())["brave-search"]?.env).toEqual({ BRAVE_API_KEY: "BSAq7fZ2kLm9Xw3RtY8uVbN4" });
  });

  it("names the server and key on the terminal, without the value", async () => {
    const file = await writeProjectFile("claude_desktop_config.json", CLAUDE_DESKTOP);
    const { io } = await importFile([file]);
    expect(io.stderrText()).toContain('secret brave-search: env.BRAVE_API_KEY: literal secret copied into config.json; prefer "BRAVE_API_KEY": "${BRAVE_API_KEY}"');
    expect(io.stderrText() + io.stdoutText()).not.toContain("BSAq7fZ2kLm9Xw3RtY8uVbN4");
  });
});

describe("mcp import: names JavaScript objects reserve", () => {
  it("reports constructor, prototype and __proto__ as skipped with the reason; all skipped exits 3", async () => {
    const file = await writeProjectFile(".mcp.json", '{ "mcpServers": { "constructor": { "command": "a" }, "prototype": { "command": "b" }, "__proto__": { "command": "c" } } }');
    const { code, io } = await importFile([file]);
    expect(code).toBe(ExitCode.Config);
    for (const name of ["constructor", "prototype", "__proto__"]) {
      expect(io.stderrText()).toContain(`skipped ${name}: "${name}" cannot be a server name: mcpvm never reads the keys __proto__, constructor and prototype from a file`);
    }
    expect(io.stderrText()).toContain("Nothing was imported: every server was skipped (reasons above).");
    expect(await configServers()).toEqual({});
  });

  it("imports the others beside them and exits 0", async () => {
    const file = await writeProjectFile(".mcp.json", '{ "mcpServers": { "constructor": { "command": "a" }, "ok": { "command": "b" } } }');
    const { code, io } = await importFile([file, "--json"]);
    expect(code).toBe(ExitCode.Ok);
    const record = JSON.parse(io.stdoutText()) as { added: string[]; skipped: { name: string }[] };
    expect(record.added).toEqual(["ok"]);
    expect(record.skipped.map((s) => s.name)).toEqual(["constructor"]);
  });
});

describe("mcp import: the server limit, --only and --dry-run", () => {
  const five = { mcpServers: Object.fromEntries(["alpha", "bravo", "charlie", "delta", "echo"].map((name) => [name, { command: "node", args: [`${name}.js`] }])) };
  const eighteen = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`s${i}`, { command: "x" }]));

  it("imports what fits, names what it left out and why, offers --only, and never calls config.json invalid", async () => {
    await writeConfig(eighteen);
    const file = await writeProjectFile("five.json", five);
    const { code, io } = await importFile(["five.json"]);
    expect(code).toBe(ExitCode.Config);
    expect(Object.keys(await configServers())).toHaveLength(20);
    expect(io.stdoutText()).toContain("added: alpha, bravo;");
    const err = io.stderrText();
    expect(err).toContain("left out charlie, delta, echo: at most 20 MCP servers can be configured; config.json had 18, so 2 of the 5 new servers fit");
    expect(err).toContain("mcpvm mcp import five.json --only charlie,delta,echo");
    expect(err).not.toContain("not valid");
    expect(file).toContain("five.json");
  });

  it("--only imports just the named servers (by file name or mcpvm name)", async () => {
    await writeProjectFile("five.json", { mcpServers: { ...five.mcpServers, "My Server": { command: "m" } } });
    const { code, io } = await importFile(["five.json", "--only", "delta,my-server"]);
    expect(code).toBe(ExitCode.Ok);
    expect(Object.keys(await configServers()).sort()).toEqual(["delta", "my-server"]);
    expect(io.stderrText()).toContain("not selected by --only: alpha, bravo, charlie, echo");
  });

  it("--only with a name that is not in the file is a usage error with a suggestion, and writes nothing", async () => {
    await writeProjectFile("five.json", five);
    const before = await readFile(join(home, "config.json"), "utf8");
    const { code, io } = await importFile(["five.json", "--only", "delta,charly"]);
    expect(code).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain(`mcp import --only: no server "charly" in ${join(project, "five.json")} (did you mean "charlie"?). The file has: alpha, bravo, charlie, delta, echo. Nothing was written.`);
    expect(await readFile(join(home, "config.json"), "utf8")).toBe(before);
  });

  it("--dry-run reports what would be added, renamed and skipped and writes nothing", async () => {
    await writeProjectFile("mixed.json", { mcpServers: { alpha: { command: "a" }, "Big Server": { command: "b" }, broken: { url: "ftp://x" } } });
    const before = await readFile(join(home, "config.json"), "utf8");
    const { code, io } = await importFile(["mixed.json", "--dry-run"]);
    expect(code).toBe(ExitCode.Ok);
    expect(io.stdoutText()).toContain("Dry run, nothing was written.");
    expect(io.stdoutText()).toContain("add: alpha, big-server;");
    expect(io.stdoutText()).toContain("renamed Big Server -> big-server");
    expect(io.stderrText()).toContain("skipped broken:");
    expect(await readFile(join(home, "config.json"), "utf8")).toBe(before);
  });
});

describe("mcp import: exit codes and messages", () => {
  it("a conflict says --overwrite and exits 3", async () => {
    await writeConfig({ alpha: { command: "mine" } });
    await writeProjectFile("a.json", { mcpServers: { alpha: { command: "theirs" } } });
    const { code, io } = await importFile(["a.json"]);
    expect(code).toBe(ExitCode.Config);
    expect(io.stderrText()).toContain('conflict alpha: "alpha" already exists with a different definition; it was kept (pass --overwrite to replace it)');
  });

  it("a missing file is a usage error (2) that says so in words and what to give instead", async () => {
    const { code, io } = await importFile(["nope.json"]);
    expect(code).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain("MCP_IMPORT_UNREADABLE");
    expect(io.stderrText()).toMatch(/cannot read \/\S+\/nope\.json: no such file\. /);
    // Not Node's own text, and a next step: the files clients keep, and the page that lists the formats.
    expect(io.stderrText()).not.toContain("ENOENT");
    expect(io.stderrText()).toContain("Give the path of an MCP client's config file (e.g. .vscode/mcp.json, ~/.cursor/mcp.json, .mcp.json); `mcpvm mcp import --help` lists the formats.");
  });

  it("a folder is a usage error (2) that names the config files inside it", async () => {
    await writeProjectFile(".vscode/mcp.json", { servers: {} });
    const { code, io } = await importFile(["."]);
    expect(code).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain(`it is a folder: import one of ${join(project, ".vscode/mcp.json")}`);
    // Node's own words ("EISDIR: illegal operation on a directory, read") say nothing the sentence does not.
    expect(io.stderrText()).not.toContain("EISDIR");
  });

  it("an empty folder, a pipe and a file it may not read: each said in words with a next step (exit 2)", async () => {
    await mkdir(join(project, "empty"));
    const empty = await importFile(["empty"]);
    expect(empty.code).toBe(ExitCode.Usage);
    expect(empty.io.stderrText()).toContain(`cannot read ${join(project, "empty")}: it is a folder: pass the MCP config file inside it (e.g. .vscode/mcp.json)`);
    expect(empty.io.stderrText()).not.toContain("EISDIR");
    // A FIFO would be read until its writer closes it: refused before reading, with what to do instead.
    execFileSync("mkfifo", [join(project, "pipe")]);
    const pipe = await importFile(["pipe"]);
    expect(pipe.code).toBe(ExitCode.Usage);
    expect(pipe.io.stderrText()).toContain(`cannot read ${join(project, "pipe")}: it is a pipe or device, not a regular file. Save the config to a file and import that file.`);
    // Permission: root reads any file, so this part runs only as another user (the VM runs tests as root).
    if (process.getuid?.() !== 0) {
      const locked = await writeProjectFile("locked.json", { servers: {} });
      await chmod(locked, 0o000);
      const denied = await importFile(["locked.json"]);
      expect(denied.code).toBe(ExitCode.Usage);
      expect(denied.io.stderrText()).toContain(`cannot read ${locked}: permission denied`);
      expect(denied.io.stderrText()).not.toContain("EACCES");
    }
  });

  it("text that is not JSON, and JSON without a servers section, exit 3", async () => {
    await writeProjectFile("broken.json", '{ "mcpServers": ');
    await writeProjectFile("other.json", { theme: "dark" });
    expect((await importFile(["broken.json"])).code).toBe(ExitCode.Config);
    expect((await importFile(["other.json"])).code).toBe(ExitCode.Config);
  });

  it("Zed settings and Codex config.toml are named as unsupported formats (exit 3)", async () => {
    await writeProjectFile("zed-settings.json", { context_servers: { "my-server": { command: { path: "node", args: ["s.js"] } } } });
    await writeProjectFile("config.toml", '[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n');
    const zed = await importFile(["zed-settings.json"]);
    expect(zed.code).toBe(ExitCode.Config);
    expect(zed.io.stderrText()).toContain('is a Zed settings file ("context_servers"), which mcpvm cannot import');
    const codex = await importFile(["config.toml"]);
    expect(codex.code).toBe(ExitCode.Config);
    expect(codex.io.stderrText()).toContain("is a Codex config.toml (TOML, [mcp_servers.…] tables), which mcpvm cannot import");
  });
});

describe("mcp import: a VS Code workspace file", () => {
  it("resolves ${workspaceFolder} to the folder holding .vscode, ${userHome} to ${HOME}, and camelCase names to dashes", async () => {
    await writeProjectFile(".vscode/mcp.json", {
      servers: {
        myLocalServer: { type: "stdio", command: "node", args: ["${workspaceFolder}/tools/server.js", "${userHome}/.data"] },
      },
    });
    const { code, io } = await importFile([".vscode/mcp.json"]);
    expect(code).toBe(ExitCode.Ok);
    expect((await configServers())["my-local-server"]?.args).toEqual([`${project}/tools/server.js`, "${HOME}/.data"]);
    expect(io.stdoutText()).toContain("renamed myLocalServer -> my-local-server");
    expect(io.stderrText()).toContain(`\${workspaceFolder} was replaced by ${project} (the folder that holds .vscode)`);
  });
});
