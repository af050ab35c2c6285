import { describe, expect, it } from "vitest";
import { DEFAULT_NATIVE_PLUGIN_NAMES, McpConfigError, mergeImportedServers, parseImportText, type McpServerEntry } from "../../../src/mcp/config/index.js";
import { literalSecretsIn } from "../../../src/mcp/config/import/literal-secrets.js";
import { normaliseServerName } from "../../../src/mcp/config/import/server-names.js";

// The import parser and merge as pure functions: text in, report out.
const options = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };
const parse = (servers: Record<string, unknown>, file = "mcp_config.json") => parseImportText(file, JSON.stringify({ mcpServers: servers }), options);

function importError(file: string, text: string): McpConfigError {
  try {
    parseImportText(file, text, options);
  } catch (error) {
    if (error instanceof McpConfigError) return error;
    throw error;
  }
  throw new Error("expected an import error");
}

describe("tool lists of every format", () => {
  it("Windsurf, Kiro and Roo Code disabledTools become denyTools", () => {
    const report = parse({ github: { command: "npx", disabledTools: ["delete_repository"] } });
    expect(report.servers.github?.denyTools).toEqual(["delete_repository"]);
    expect(report.warnings).toEqual([]);
  });

  it("Gemini CLI includeTools/excludeTools become allowTools/denyTools, httpUrl is streamable HTTP, trust is not imported", () => {
    const report = parse({ docs: { httpUrl: "https://docs.example.com/mcp", includeTools: ["search", "read"], excludeTools: ["delete"], trust: true } }, "settings.json");
    expect(report.servers.docs).toEqual({ type: "http", url: "https://docs.example.com/mcp", allowTools: ["search", "read"], denyTools: ["delete"], enabled: true });
    expect(report.warnings).toEqual([{ name: "docs", message: '"trust" is not imported: mcpvm asks according to "confirm"' }]);
  });

  it("several deny lists are all kept (their union); several allow lists allow only what all of them name", () => {
    const report = parse({ a: { command: "x", denyTools: ["one"], disabledTools: ["two", "one"], allowTools: ["r", "s", "t"], includeTools: ["s", "t", "u"] } });
    expect(report.servers.a?.denyTools).toEqual(["one", "two"]);
    expect(report.servers.a?.allowTools).toEqual(["s", "t"]);
    expect(report.warnings).toEqual([{ name: "a", message: '"allowTools" and "includeTools" are both set; only tools named in all of them are allowed (allowTools)' }]);
  });

  it("skips an entry whose deny list cannot be read rather than importing it without the list", () => {
    const report = parse({ a: { command: "x", disabledTools: "delete_repository" } });
    expect(report.servers).toEqual({});
    expect(report.skipped).toEqual([{ name: "a", reason: '"disabledTools" must be a list of tool names; fix it in the file so the tools it names stay filtered' }]);
  });

  it("opencode's file-wide tool switches are reported, since mcpvm cannot carry them over", () => {
    const report = parseImportText("opencode.json", JSON.stringify({ mcp: { gh: { type: "local", command: ["gh-mcp"] } }, tools: { "gh_delete*": false, bash: true } }), options);
    expect(report.warnings).toContainEqual({ name: "", message: 'the "tools" section switches off gh_delete*; it was not imported, so add those tools to each server\'s "denyTools" (exact names)' });
  });
});

describe("keys JavaScript objects reserve", () => {
  it("server names constructor, prototype and __proto__ are skipped with the reason, in file order", () => {
    const report = parseImportText("x.json", '{ "mcpServers": { "prototype": { "command": "a" }, "ok": { "command": "b" }, "__proto__": { "command": "c" }, "constructor": { "command": "d" } } }', options);
    expect(Object.keys(report.servers)).toEqual(["ok"]);
    expect(report.skipped.map((s) => s.name)).toEqual(["prototype", "__proto__", "constructor"]);
    expect(report.skipped[0]?.reason).toBe(
      '"prototype" cannot be a server name: mcpvm never reads the keys __proto__, constructor and prototype from a file (they can change JavaScript objects); rename the server in the file and import it again',
    );
  });

  it("such a key inside an entry is reported as not imported", () => {
    const report = parseImportText("x.json", '{ "mcpServers": { "ok": { "command": "b", "env": { "constructor": "1", "A": "2" } } } }', options);
    expect(report.servers.ok?.env).toEqual({ A: "2" });
    expect(report.warnings).toEqual([{ name: "ok", message: "env.constructor was not imported: mcpvm never reads keys named __proto__, constructor or prototype; rename it in the file" }]);
  });
});

describe("literal secrets and placeholders", () => {
  const entry = (fields: Partial<McpServerEntry>): McpServerEntry => ({ type: "stdio", command: "x", enabled: true, ...fields });
  const kinds = (fields: Partial<McpServerEntry>, name = "srv") => literalSecretsIn(name, entry(fields)).map((s) => `${s.field}:${s.kind}`);

  it("finds placeholders people forget to replace", () => {
    const env = { A_TOKEN: "<YOUR_TOKEN>", B_KEY: "YOUR_API_KEY_HERE", C_KEY: "xxxxxxxxxxxx", D_KEY: "sk-...", E_KEY: "ghp_xxxxxxxxxxxxxxxx", F: "changeme", G_KEY: "your-api-key" };
    expect(kinds({ env })).toEqual(["env.A_TOKEN:placeholder", "env.B_KEY:placeholder", "env.C_KEY:placeholder", "env.D_KEY:placeholder", "env.E_KEY:placeholder", "env.F:placeholder", "env.G_KEY:placeholder"]);
  });

  it("finds literal secrets by name, by shape and inside JSON header blobs, and leaves references and plain settings alone", () => {
    const env = {
      BRAVE_API_KEY: "BSAq7fZ2kLm9Xw3RtY8uVbN4",
      SOMETHING: "a8Fk29dkLq01ZpX7mN3b",
      OPENAPI_MCP_HEADERS: '{"Authorization": "Bearer ntn_4829fakeNotionToken77"}',
      GITHUB_TOKEN: "${GITHUB_TOKEN}",
      API_KEY: "${env:API_KEY}",
      LOG_LEVEL: "debug",
      AUTH_MODE: "oauth",
      TOKEN_FILE: "/home/me/.token",
    };
    expect(kinds({ env })).toEqual(["env.BRAVE_API_KEY:secret", "env.SOMETHING:secret", "env.OPENAPI_MCP_HEADERS:secret"]);
  });

  it("suggests the reference with the header's scheme kept and a variable named after the server", () => {
    const found = literalSecretsIn("github", { type: "http", url: "https://api.example.com/mcp", enabled: true, headers: { Authorization: "Bearer ghp_9fK2mQ7xLp3RtY8uVbN4wZ1c", "X-Api-Key": "<API_KEY>" } });
    expect(found.map((s) => s.message)).toEqual([
      'headers.Authorization: literal secret copied into config.json; prefer "Authorization": "Bearer ${GITHUB_TOKEN}" and set GITHUB_TOKEN in your environment',
      'headers.X-Api-Key: "<API_KEY>" is a placeholder, not a value; write "X-Api-Key": "${X_API_KEY}" and set X_API_KEY in your environment',
    ]);
    expect(found.map((s) => s.message).join("\n")).not.toContain("ghp_9fK2");
  });

  it("finds credentials in a URL (password, secret query parameter)", () => {
    const found = literalSecretsIn("db", { type: "http", url: "https://me:s3cretPassw0rd@db.example.com/mcp?api_key=k29dkLq01ZpX7mN3b&region=eu", enabled: true });
    expect(found.map((s) => s.field)).toEqual(["url", "url (?api_key=)"]);
    expect(found[0]?.message).toBe('url: a literal password is copied into config.json; prefer "https://me:${DB_PASSWORD}@db.example.com/mcp" and set DB_PASSWORD in your environment');
  });

  it("are part of the import report, by mcpvm name", () => {
    const report = parse({ "Brave Search": { command: "npx", env: { BRAVE_API_KEY: "BSAq7fZ2kLm9Xw3RtY8uVbN4" } } });
    expect(report.secrets).toEqual([
      { name: "brave-search", field: "env.BRAVE_API_KEY", kind: "secret", message: 'env.BRAVE_API_KEY: literal secret copied into config.json; prefer "BRAVE_API_KEY": "${BRAVE_API_KEY}" and set it in your environment' },
    ]);
  });
});

describe("editor variables", () => {
  const vscode = (servers: Record<string, unknown>, file: string) => parseImportText(file, JSON.stringify({ servers }), options);

  it("${workspaceFolder} and ${workspaceFolderBasename} are the folder holding .vscode; ${userHome} is ${HOME}", () => {
    const report = vscode({ fs: { command: "npx", args: ["${workspaceFolder}", "${workspaceFolderBasename}", "${userHome}/x", "$${workspaceFolder}"] } }, "/work/proj/.vscode/mcp.json");
    expect(report.servers.fs?.args).toEqual(["/work/proj", "proj", "${HOME}/x", "$${workspaceFolder}"]);
    expect(report.warnings.map((w) => w.message)).toEqual([
      "${workspaceFolder} was replaced by /work/proj (the folder that holds .vscode)",
      "${workspaceFolderBasename} was replaced by proj (the folder that holds .vscode)",
      "${userHome} became ${HOME}, read from your environment at connect time",
    ]);
  });

  it("a workspace path holding ${ is written so that it stays literal", () => {
    const report = vscode({ fs: { command: "npx", args: ["${workspaceFolder}"] } }, "/work/${odd}/.cursor/mcp.json");
    expect(report.servers.fs?.args).toEqual(["/work/$${odd}"]);
  });

  it("outside a .vscode or .cursor folder the workspace is unknown, so the variable is reported, not guessed", () => {
    const report = vscode({ fs: { command: "npx", args: ["${workspaceFolder}"] } }, "/home/me/settings/mcp.json");
    expect(report.servers.fs?.args).toEqual(["${workspaceFolder}"]);
    expect(report.warnings.map((w) => w.message)).toEqual(["${workspaceFolder} is an editor variable; mcpvm reads it from the environment at connect time, so set workspaceFolder or edit the entry"]);
  });
});

describe("relative paths in a project's file", () => {
  it("a project-root .mcp.json: cwd becomes the folder it is in, so ./server.js is the file the project meant", () => {
    const report = parseImportText("/work/proj/.mcp.json", JSON.stringify({ mcpServers: { local: { command: "node", args: ["./server.js"] } } }), options);
    expect(report.servers.local?.cwd).toBe("/work/proj");
    expect(report.warnings).toEqual([{ name: "local", message: '"cwd" set to /work/proj, the folder the file belongs to, because args[0] "./server.js" is relative to it' }]);
  });

  it("a relative cwd in a workspace file is resolved against the workspace", () => {
    const report = parseImportText("/work/proj/.vscode/mcp.json", JSON.stringify({ servers: { tool: { command: "bin/tool", cwd: "tools" } } }), options);
    expect(report.servers.tool?.cwd).toBe("/work/proj/tools");
  });

  it("a user-level file (Claude Desktop) says it cannot know the folder, and changes nothing", () => {
    const report = parse({ local: { command: "node", args: ["../server.js"] } }, "/home/me/.config/Claude/claude_desktop_config.json");
    expect(report.servers.local?.cwd).toBeUndefined();
    expect(report.warnings.map((w) => w.message)).toEqual([
      'args[0] "../server.js" is a relative path and the file does not say to which folder; set "cwd" in the entry (mcpvm starts servers in its config home)',
    ]);
  });
});

describe("server names", () => {
  // camelCase used to be lowercased whole (myLocalServer -> mylocalserver).
  it("camelCase words become dashed; names that start with a capital stay whole", () => {
    expect(normaliseServerName("myLocalServer", []).name).toBe("my-local-server");
    expect(normaliseServerName("myAPIServer", []).name).toBe("my-api-server");
    expect(normaliseServerName("GitHub", []).name).toBe("github");
    expect(normaliseServerName("OpenAI", []).name).toBe("openai");
  });

  it('"a" keeps its name beside "A", whatever the order in the file', () => {
    const report = parse({ A: { command: "upper" }, a: { command: "lower" } });
    expect(report.servers.a?.command).toBe("lower");
    expect(report.servers["a-2"]?.command).toBe("upper");
  });
});

describe("--only", () => {
  it("selects servers by their name in the file or their mcpvm name and lists the rest", () => {
    const report = parseImportText("x.json", JSON.stringify({ mcpServers: { "My Server": { command: "a" }, other: { command: "b" }, third: { command: "c" } } }), { ...options, only: ["my-server", "third", "nope"] });
    expect(Object.keys(report.servers)).toEqual(["my-server", "third"]);
    expect(report.notSelected).toEqual(["other"]);
    expect(report.unmatchedOnly).toEqual(["nope"]);
    expect(report.selectableNames).toEqual(["My Server", "my-server", "other", "third"]);
  });
});

describe("formats mcpvm names but does not import", () => {
  it("Zed settings (context_servers)", () => {
    const error = importError("settings.json", '{ "context_servers": { "x": { "command": { "path": "node" } } } }');
    expect(error.code).toBe("MCP_IMPORT_UNSUPPORTED_FORMAT");
    expect(error.message).toContain('settings.json is a Zed settings file ("context_servers"), which mcpvm cannot import; add each server with `mcpvm mcp add');
  });

  it("Codex config.toml, other TOML and YAML", () => {
    expect(importError("/h/.codex/config.toml", '[mcp_servers.docs]\ncommand = "npx"\n').message).toContain("is a Codex config.toml (TOML, [mcp_servers.…] tables)");
    expect(importError("x.conf", 'model = "o3"\n[profiles.fast]\nmodel = "o4-mini"\n').message).toContain("is a TOML file");
    expect(importError("config.yaml", "mcpServers:\n  - name: x\n").message).toContain("is a YAML file");
    expect(importError("config.yaml", "mcpServers:\n").code).toBe("MCP_IMPORT_UNSUPPORTED_FORMAT");
  });

  it("a file that is JSON is read as JSON whatever its name", () => {
    expect(Object.keys(parseImportText("odd.toml", '{ "mcpServers": { "a": { "command": "x" } } }', options).servers)).toEqual(["a"]);
  });
});

describe("merging under the server limit", () => {
  const entry = (command: string): McpServerEntry => ({ type: "stdio", command, enabled: true });

  it("adds in file order while there is room; replacing or keeping an entry takes none", () => {
    const existing = { a: { command: "a" }, b: { command: "old" } };
    const merged = mergeImportedServers(existing, { b: entry("new"), a: entry("a"), c: entry("c"), d: entry("d") }, { overwrite: true, maxServers: 3 });
    expect(merged.overwritten).toEqual(["b"]);
    expect(merged.unchanged).toEqual(["a"]);
    expect(merged.added).toEqual(["c"]);
    expect(merged.leftOut).toEqual([{ name: "d", reason: "at most 3 MCP servers can be configured; config.json had 2, so 1 of the 2 new servers fit" }]);
    expect(Object.keys(merged.servers)).toEqual(["a", "b", "c"]);
  });

  it("an input id declared differently by a configured server is a conflict, not an invalid config.json", () => {
    const input = (description: string) => ({ type: "promptString" as const, id: "token", description });
    const existing = { gh: { command: "x", env: { T: "${input:token}" }, inputs: [input("GitHub token")] } };
    const merged = mergeImportedServers(existing, { other: { ...entry("y"), env: { T: "${input:token}" }, inputs: [input("Other token")] } }, { overwrite: false });
    expect(merged.added).toEqual([]);
    expect(merged.conflicts).toEqual([
      { name: "other", reason: 'input "token" is declared differently by server "gh", and one id has one definition; rename the id in one of them (in the imported file, or in config.json)' },
    ]);
  });
});
