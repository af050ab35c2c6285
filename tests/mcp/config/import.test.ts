import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it, expect } from "vitest";
import {
  DEFAULT_NATIVE_PLUGIN_NAMES,
  McpConfigError,
  mergeImportedServers,
  normaliseServerName,
  parseImportText,
  readImportFile,
  stripJsonc,
  type McpImportReport,
} from "../../../src/mcp/config/index.js";

const options = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const load = (name: string): Promise<McpImportReport> => readImportFile(fixture(name), options);

function importError(text: string): McpConfigError {
  try {
    parseImportText("x.json", text, options);
  } catch (error) {
    if (error instanceof McpConfigError) return error;
    throw error;
  }
  throw new Error("expected an import error");
}

describe("import: VS Code mcp.json (servers + inputs, JSONC)", () => {
  it("keeps ${input:id} references and attaches each input definition to the servers that use it", async () => {
    const report = await load("vscode-mcp.json");
    expect(report.format).toBe("vscode");
    expect(report.servers.github).toEqual({
      type: "http",
      url: "https://api.githubcopilot.com/mcp/",
      headers: { Authorization: "Bearer ${input:github_token}" },
      enabled: true,
      inputs: [{ type: "promptString", id: "github_token", description: "GitHub Personal Access Token", password: true }],
    });
    expect(report.servers.regional?.inputs).toEqual([{ type: "pickString", id: "region", description: "Which region?", options: ["eu", "us"], default: "eu" }]);
    expect(Object.keys(report.servers)).toEqual(["github", "perplexity", "fetch-server", "playwright", "my-files", "regional"]);
  });

  it("reports every rename, every skipped server and every dropped field", async () => {
    const report = await load("vscode-mcp.json");
    expect(report.renames).toEqual([
      { from: "Perplexity", to: "perplexity", reason: "server names are lowercase letters, digits and dashes" },
      { from: "fetch", to: "fetch-server", reason: '"fetch" is the name of a native plugin' },
    ]);
    expect(report.skipped).toEqual([{ name: "picker", reason: 'input "picked-folder" is a VS Code command input, which mcpvm cannot run' }]);
    expect(report.warnings).toEqual([
      { name: "playwright", message: '"envFile" is not supported: copy the variables it sets into "env" (as ${VAR} references)' },
      { name: "playwright", message: '"dev" is not supported and was not imported' },
      { name: "my-files", message: "${workspaceFolder} is an editor variable; mcpvm reads it from the environment at connect time, so set workspaceFolder or edit the entry" },
    ]);
  });

  it("reads the mcp section of a VS Code settings.json too", () => {
    const report = parseImportText("settings.json", '{ "editor.fontSize": 14, "mcp": { "servers": { "time": { "command": "uvx", "args": ["mcp-server-time"] } } } }', options);
    expect(report.format).toBe("vscode");
    expect(report.servers).toEqual({ time: { type: "stdio", command: "uvx", args: ["mcp-server-time"], enabled: true } });
  });

  it("skips a server whose ${input:id} the file never declares", () => {
    const report = parseImportText("mcp.json", '{ "servers": { "a": { "command": "x", "env": { "T": "${input:missing}" } } } }', options);
    expect(report.skipped).toEqual([{ name: "a", reason: 'uses ${input:missing} but the file declares no input "missing"' }]);
  });
});

describe("import: mcpServers files (Claude Desktop, Cursor, Claude Code, Cline)", () => {
  it("Claude Desktop: infers stdio, normalises names, reports what could not be imported", async () => {
    const report = await load("claude_desktop_config.json");
    expect(report.format).toBe("mcpServers");
    expect(Object.keys(report.servers)).toEqual(["filesystem", "brave-search", "server-git", "memory-bank"]);
    expect(report.servers["brave-search"]).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-brave-search"],
      env: { BRAVE_API_KEY: "BSAfakeKeyForTests0123" },
      enabled: true,
    });
    expect(report.renames).toEqual([
      { from: "Memory Bank", to: "memory-bank", reason: "server names are lowercase letters, digits and dashes" },
      { from: "mcp-server-git", to: "server-git", reason: 'the "mcp" prefix is reserved' },
    ]);
    expect(report.skipped).toEqual([{ name: "broken", reason: 'mcpServers.broken: needs "command" (a stdio server) or "url" (an http or sse server) [stdio-command]' }]);
  });

  it("Cursor: url entries become http, or sse when the path ends in /sse; ${env:VAR} is kept", async () => {
    const report = await load("cursor-mcp.json");
    expect(report.servers.context7).toEqual({ type: "http", url: "https://mcp.context7.com/mcp", headers: { CONTEXT7_API_KEY: "${env:CONTEXT7_API_KEY}" }, enabled: true });
    expect(report.servers.sentry).toEqual({ type: "sse", url: "https://mcp.sentry.dev/sse", enabled: true });
    expect(report.servers.linear?.type).toBe("stdio");
    // ${userHome} used to be kept (and read from an environment variable nobody sets); it now becomes ${HOME}.
    expect(report.servers.notes?.args).toEqual(["${HOME}/notes-mcp/index.js"]);
    expect(report.warnings).toEqual([
      { name: "notes", message: '"envFile" is not supported: copy the variables it sets into "env" (as ${VAR} references)' },
      { name: "notes", message: "${userHome} became ${HOME}, read from your environment at connect time" },
    ]);
  });

  it("Claude Code .mcp.json: keeps ${VAR} and ${VAR:-default} for connect time", async () => {
    const report = await load("claude-code.mcp.json");
    expect(report.servers["api-server"]).toEqual({
      type: "http",
      url: "${API_BASE_URL:-https://api.example.com}/mcp",
      headers: { Authorization: "Bearer ${API_KEY}" },
      enabled: true,
    });
    expect(report.servers["shared-server"]).toEqual({ type: "stdio", command: "/opt/tools/shared-server", args: [], env: {}, enabled: true });
    expect(report.servers.asana?.type).toBe("sse");
    expect(report.renames).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect(report.warnings).toEqual([]);
  });

  it("Cline: disabled becomes enabled: false; auto-approval lists and timeout are reported, not imported", async () => {
    const report = await load("cline_mcp_settings.json");
    expect(report.servers.weather?.enabled).toBe(true);
    expect(report.servers["old-python"]?.enabled).toBe(false);
    expect(report.servers["remote-tools"]).toEqual({ type: "http", url: "https://tools.example.com/mcp", enabled: true });
    expect(report.warnings).toEqual([
      { name: "weather", message: '"alwaysAllow" (auto-approval) is not imported: mcpvm asks according to "confirm"' },
      { name: "old-python", message: '"timeout" is not imported: set connectTimeoutMs or callTimeoutMs (milliseconds)' },
      { name: "old-python", message: '"autoApprove" is not imported: mcpvm asks according to "confirm"' },
    ]);
  });
});

describe("import: command-as-array entries (top-level mcp)", () => {
  it("splits command arrays, maps local/remote, environment, allowedTools and timeout, and {env:VAR}", async () => {
    const report = await load("opencode.json");
    expect(report.format).toBe("command-array");
    expect(report.servers.everything).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-everything"],
      env: { LOG_LEVEL: "debug", EVERYTHING_TOKEN: "${EVERYTHING_TOKEN}" },
      enabled: true,
      connectTimeoutMs: 8000,
    });
    expect(report.servers.docs).toEqual({ type: "http", url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" }, enabled: false });
    expect(report.servers.search).toEqual({ type: "http", url: "https://search.example.com/mcp", allowTools: ["search", "fetch_page"], enabled: true, description: "Web search" });
    expect(report.servers.events?.type).toBe("sse");
    // "./data.db" is relative to the project opencode.json sits in; mcpvm would otherwise start the server in its config home.
    expect(report.servers["local-db"]).toEqual({
      type: "stdio",
      command: "uvx",
      args: ["mcp-server-sqlite", "--db-path", "./data.db"],
      cwd: dirname(fixture("opencode.json")),
      allowTools: ["read_query", "list_tables"],
      enabled: true,
      description: "Project database",
    });
  });

  it("reports entries it cannot import and why", async () => {
    const report = await load("opencode.json");
    expect(report.skipped).toEqual([
      { name: "empty", reason: '"command" is an empty array' },
      { name: "socket", reason: 'transport type "websocket" is not one of stdio, local, http, streamable-http, remote, sse' },
      { name: "secret-file", reason: '"env" uses a {file:…} reference, which mcpvm does not read; put the value in an environment variable and use ${VAR}' },
    ]);
    expect(report.warnings).toEqual([
      { name: "docs", message: '"oauth": false is not imported: mcpvm logs in only when a server asks for it (`mcpvm mcp login <name>`), and never for a server with its own Authorization header' },
      { name: "local-db", message: `"cwd" set to ${dirname(fixture("opencode.json"))}, the folder the file belongs to, because args[2] "./data.db" is relative to it` },
    ]);
  });
});

describe("import: detection and file errors", () => {
  it("fails with MCP_IMPORT_UNKNOWN_FORMAT when there is no servers section", () => {
    const error = importError('{ "theme": "dark" }');
    expect(error.code).toBe("MCP_IMPORT_UNKNOWN_FORMAT");
    expect(error.message).toBe(
      'x.json has no MCP servers section mcpvm knows: expected "mcpServers" (Claude Desktop, Cursor, Claude Code), "servers" (VS Code mcp.json), "mcp.servers" (VS Code settings) or "mcp" (command-array entries)',
    );
  });

  it("fails with MCP_IMPORT_INVALID_JSON for text that is not JSON even without comments", () => {
    expect(importError("{ servers: ").code).toBe("MCP_IMPORT_INVALID_JSON");
  });

  it("fails with MCP_IMPORT_UNREADABLE for a missing file", async () => {
    await expect(readImportFile(fixture("does-not-exist.json"), options)).rejects.toMatchObject({ code: "MCP_IMPORT_UNREADABLE" });
  });

  it("imports the first section found and reports the others", () => {
    const report = parseImportText("both.json", '{ "mcpServers": { "a": { "command": "x" } }, "servers": { "b": { "command": "y" } } }', options);
    expect(Object.keys(report.servers)).toEqual(["a"]);
    expect(report.warnings).toEqual([{ name: "", message: 'the "servers" section was not imported (only "mcpServers" was); import it from a file of its own' }]);
  });

  it("strips comments and trailing commas outside strings only", () => {
    expect(stripJsonc('{ "url": "https://e.com//x", /* c */ "a": [1, 2,], // end\n }')).toBe('{ "url": "https://e.com//x",  "a": [1, 2] \n }');
    expect(stripJsonc('{ "s": "a /* not a comment */ b", "q": "say \\"hi\\" // still text" }')).toBe('{ "s": "a /* not a comment */ b", "q": "say \\"hi\\" // still text" }');
  });

  it("never lets a __proto__ key through", () => {
    const report = parseImportText("p.json", '{ "mcpServers": { "__proto__": { "command": "x" }, "ok": { "command": "y" } } }', options);
    expect(Object.keys(report.servers)).toEqual(["ok"]);
    expect(Object.getPrototypeOf(report.servers)).toBe(Object.prototype);
  });
});

describe("server names from other tools", () => {
  it("become lowercase-dash names and say why", () => {
    expect(normaliseServerName("My Server", ["fetch"])).toEqual({ name: "my-server", reasons: ["server names are lowercase letters, digits and dashes"] });
    expect(normaliseServerName("Café_Tools", [])).toEqual({ name: "cafe-tools", reasons: ["server names are lowercase letters, digits and dashes"] });
    expect(normaliseServerName("1password", [])).toEqual({ name: "server-1password", reasons: ["server names start with a letter"] });
    expect(normaliseServerName("MCP", [])).toEqual({ name: "server", reasons: ["server names are lowercase letters, digits and dashes", 'the "mcp" prefix is reserved'] });
    expect(normaliseServerName("then", [])).toEqual({ name: "then-server", reasons: ['"then" is reserved'] });
    expect(normaliseServerName("host:files", [])).toEqual({ name: "host-files", reasons: ["server names are lowercase letters, digits and dashes"] });
  });

  // A name that is already valid used to be renamed when an invalid one sorted before it ("A" took "a", "a" became "a-2").
  it("that collide: an already valid name keeps it, the others get -2, -3 in sorted order, whatever the file order", () => {
    const forward = parseImportText("a.json", '{ "mcpServers": { "My Server": { "command": "a" }, "my-server": { "command": "b" }, "MY SERVER": { "command": "c" } } }', options);
    const backward = parseImportText("b.json", '{ "mcpServers": { "MY SERVER": { "command": "c" }, "my-server": { "command": "b" }, "My Server": { "command": "a" } } }', options);
    const commands = (report: McpImportReport) => Object.fromEntries(Object.entries(report.servers).map(([name, entry]) => [name, entry.command]));
    expect(commands(forward)).toEqual({ "my-server": "b", "my-server-2": "c", "my-server-3": "a" });
    expect(commands(backward)).toEqual(commands(forward));
    expect(forward.renames).toEqual([
      { from: "MY SERVER", to: "my-server-2", reason: 'server names are lowercase letters, digits and dashes; "my-server" is already used by "my-server" in this file' },
      { from: "My Server", to: "my-server-3", reason: 'server names are lowercase letters, digits and dashes; "my-server" is already used by "my-server" in this file' },
    ]);
  });
});

describe("merging an import into the existing servers", () => {
  const imported = { memory: { type: "stdio" as const, command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"], enabled: true } };

  it("adds new names, leaves identical ones alone and never replaces a different one without overwrite", () => {
    const existing = { github: { url: "https://e.com/mcp" }, memory: { command: "node", args: ["memory.js"] } };
    const kept = mergeImportedServers(existing, { ...imported, github: { type: "http", url: "https://e.com/mcp", enabled: true }, time: { type: "stdio", command: "uvx", enabled: true } }, { overwrite: false });
    expect(kept.added).toEqual(["time"]);
    expect(kept.unchanged).toEqual(["github"]);
    expect(kept.overwritten).toEqual([]);
    expect(kept.conflicts).toEqual([{ name: "memory", reason: '"memory" already exists with a different definition; it was kept (pass --overwrite to replace it)' }]);
    expect(kept.servers.memory).toEqual({ command: "node", args: ["memory.js"] });
  });

  it("replaces a different definition with overwrite and says so", () => {
    const replaced = mergeImportedServers({ memory: { command: "node" } }, imported, { overwrite: true });
    expect(replaced.overwritten).toEqual(["memory"]);
    expect(replaced.servers.memory).toEqual(imported.memory);
  });
});

describe("the fixtures are the real formats", () => {
  it("the VS Code fixture has comments and trailing commas, as real mcp.json files do", async () => {
    const text = await readFile(fixture("vscode-mcp.json"), "utf8");
    expect(text).toContain("// ");
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe("import never relaxes confirmation", () => {
  it("drops a foreign file's confirm setting and says so", () => {
    const text = JSON.stringify({ mcpServers: { fx: { command: "node", args: ["s.js"], confirm: "never" } } });
    const report = parseImportText("project/.mcp.json", text, { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES });
    expect(report.servers.fx?.confirm).toBeUndefined();
    expect(report.warnings).toContainEqual({ name: "fx", message: expect.stringContaining('"confirm" is not imported') });
  });
});

describe("mcpvm's own gateway in a client's file", () => {
  // docs/GATEWAY.md has clients start `mcpvm serve`; README then imports those clients' files.
  it("is imported (it may use another config home) with a note saying what it is and how to remove it", () => {
    const text = JSON.stringify({
      mcpServers: {
        mcpvm: { command: "mcpvm", args: ["serve", "--toolset", "dev"] },
        npxed: { command: "npx", args: ["-y", "mcpvm", "serve"] },
        cloned: { command: "node", args: ["/home/me/mcpvm/bin/mcpvm.js", "serve"] },
        memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
        team: { command: "mcpvm", args: ["serve"], env: { MCPVM_HOME: "~/.mcpvm-team" } },
      },
    });
    const report = parseImportText(".mcp.json", text, options);
    expect(Object.keys(report.servers).sort()).toEqual(["cloned", "memory", "npxed", "team", "vm"]);
    const notes = report.warnings.filter((w) => w.message.includes("mcpvm's own gateway")).map((w) => w.name).sort();
    expect(notes).toEqual(["cloned", "npxed", "vm"]);
    expect(report.warnings.find((w) => w.name === "vm")?.message).toBe(
      "this entry starts mcpvm's own gateway (mcpvm serve): with this config home it would serve these same servers again, behind itself. Keep it only if it sets another MCPVM_HOME in its env; else `mcpvm mcp remove vm`.",
    );
  });
});
