import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ADD_USAGE } from "../../src/cli/commands/mcp/add-request.js";
import { KNOWN_SERVERS } from "../../src/mcp/known-servers.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

let home: string;
let project: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-add-home-"));
  project = await mkdtemp(join(tmpdir(), "mcpvm-add-project-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(project, { recursive: true, force: true });
});

async function add(args: readonly string[], cwd = project) {
  const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH }, "", cwd);
  const code = await runCli(["mcp", "add", ...args], io);
  // These homes never enable the mcp plugin: add's line saying so (mcp-add-missing-command.test.ts) is left out here.
  const stderr = io.stderrText().split("\n").filter((line) => !line.startsWith("MCP is off in this config home")).join("\n");
  return { code, stdout: io.stdoutText(), stderr };
}

async function servers(): Promise<Record<string, Record<string, unknown>>> {
  try {
    return (JSON.parse(await readFile(join(home, "config.json"), "utf8")) as { mcpServers?: Record<string, Record<string, unknown>> }).mcpServers ?? {};
  } catch {
    return {};
  }
}

describe("mcp add: the syntax of other MCP clients", () => {
  it("--transport http <name> <url> with a curl-style -H header (Claude Code's form)", async () => {
    const result = await add(["--transport", "http", "api", "https://api.example.com/mcp", "-H", "Authorization: Bearer ${API_TOKEN}"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(ExitCode.Ok);
    expect((await servers()).api).toMatchObject({ type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } });
  });

  it("-t sse, and the NAME=VALUE header form", async () => {
    expect((await add(["feed", "-t", "sse", "https://e.example/sse", "--header", "X-Key=${KEY}"])).code).toBe(ExitCode.Ok);
    expect((await servers()).feed).toMatchObject({ type: "sse", url: "https://e.example/sse", headers: { "X-Key": "${KEY}" } });
  });

  it("a command after -- means stdio without --stdio, and -e sets its environment", async () => {
    const result = await add(["tool", "-e", "API_KEY=${API_KEY}", "-e", "MODE=fast", "--", "npx", "-y", "some-mcp-server@1.2.3"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect((await servers()).tool).toMatchObject({ type: "stdio", command: "npx", args: ["-y", "some-mcp-server@1.2.3"], env: { API_KEY: "${API_KEY}", MODE: "fast" } });
    expect((await servers()).tool?.cwd).toBeUndefined();
  });

  it("--connect-timeout is stored in milliseconds", async () => {
    expect((await add(["slow", "--connect-timeout", "90s", "--", "npx", "-y", "pkg@1.0.0"])).code).toBe(ExitCode.Ok);
    expect((await servers()).slow?.connectTimeoutMs).toBe(90_000);
  });
});

describe("mcp add: an OAuth client registered by hand (Claude Code's --client-id, --callback-port)", () => {
  it("writes the oauth block of an http server whose authorization server registers no clients itself", async () => {
    const result = await add(["--transport", "http", "corp", "https://mcp.corp.example/mcp", "--client-id", "mcpvm-cli", "--callback-port", "33418"]);
    expect(result.code, result.stderr).toBe(0);
    expect((await servers()).corp).toEqual({ type: "http", url: "https://mcp.corp.example/mcp", oauth: { clientId: "mcpvm-cli", callbackPort: 33418 }, enabled: true });
  });
});

describe("mcp add: flags that contradict or would do nothing are refused, and nothing is written", () => {
  const cases: [string, string[], RegExp][] = [
    ["--client-id on a stdio server", ["x", "--client-id", "c", "--", "node", "s.js"], /--client-id applies to http and sse servers/],
    ["--callback-port that is not a port", ["x", "--http", "http://a.example/", "--callback-port", "99999"], /--callback-port takes a port number/],
    ["--stdio with --http", ["x", "--stdio", "--http", "http://a.example/", "--", "node"], /--stdio.*--http.*contradict/],
    ["--http with --sse", ["x", "--http", "http://a.example/", "--sse", "http://b.example/"], /--http and --sse contradict/],
    ["--transport http with a command after --", ["x", "--transport", "http", "http://a.example/", "--", "node", "s.js"], /contradict/],
    ["--env on an http server", ["x", "--http", "http://a.example/", "--env", "A=1"], /--env sets the environment of a stdio server; this one is http/],
    ["--header on a stdio server", ["x", "-H", "A: b", "--", "node", "s.js"], /--header applies to http and sse servers; this one is stdio/],
    ["--header on a catalog server", ["memory", "-H", "A: b"], /--header applies to http and sse servers; "memory" from the catalog is stdio/],
    ["--dir on a server of your own", ["x", "--dir", ".", "--", "node", "s.js"], /--dir applies to the catalog servers/],
    ["--dir on a catalog server that takes none", ["memory", "--dir", "."], /memory takes none/],
    ["--as on a server of your own", ["x", "--as", "y", "--", "node", "s.js"], /--as renames a catalog server/],
    ["--cwd on an http server", ["x", "--http", "http://a.example/", "--cwd", "."], /--cwd applies to stdio servers/],
    ["--cwd on a catalog server", ["memory", "--cwd", "."], /--cwd applies to your own stdio servers/],
    ["an extra argument", ["x", "y", "--", "node", "s.js"], /unexpected argument "y"/],
    ["a URL without --transport", ["x", "https://a.example/mcp"], /unexpected argument "https:\/\/a.example\/mcp"; for an HTTP server write --transport http/],
    ["a second URL", ["x", "--http", "http://a.example/", "http://b.example/"], /unexpected argument "http:\/\/b.example\/"/],
    ["--transport with no URL", ["x", "--transport", "http"], /needs the server's URL/],
    ["an unknown transport", ["x", "--transport", "websocket", "ws://a"], /--transport takes stdio, http or sse/],
    ["an empty command after --", ["x", "--stdio", "--"], /give the command after --/],
    ["--stdio with no command", ["x", "--stdio"], /give the command after --/],
    ["--transport stdio with no command", ["x", "-t", "stdio"], /give the command after --/],
    ["--http that is not a URL", ["x", "--http", "notaurl"], /needs an absolute http:\/\/ or https:\/\/ URL/],
    ["an ftp URL", ["x", "--transport", "http", "ftp://files.example/"], /needs an absolute http:\/\/ or https:\/\/ URL/],
    ["a header without a name", ["x", "--http", "http://a.example/", "-H", "novalue"], /--header takes "Name: value" or Name=value/],
    ["--env without =", ["x", "-e", "NOEQUALS", "--", "node", "s.js"], /--env takes KEY=VALUE/],
    ["--dir that does not exist", ["filesystem", "--dir", "/nonexistent/mcpvm-test-dir"], /--dir \/nonexistent\/mcpvm-test-dir is not an existing folder/],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const result = await add(args);
      expect(result.stderr).toMatch(message);
      expect(result.code).toBe(ExitCode.Usage);
      expect(await servers()).toEqual({});
    });
  }

  it("a name that is not in the catalog gets a did-you-mean and the two ways to add any server", async () => {
    const result = await add(["memroy"]);
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain('did you mean "memory"?');
    expect(result.stderr).toContain("mcpvm mcp add memroy -- <command>");
  });
});

describe("mcp add from the catalog", () => {
  it("fetch, whose name is a native plugin's, is added as fetch-server and says so", async () => {
    const result = await add(["fetch"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toContain('"fetch" is the name of a native plugin, so the catalog server was added as "fetch-server" (choose another name with --as <name>)');
    expect(result.stdout).toContain("mcpvm mcp approve fetch-server");
    const entry = (await servers())["fetch-server"];
    expect(entry).toMatchObject({ type: "stdio", command: "uvx" });
    expect(entry?.args).toEqual(["mcp-server-fetch@2026.10.24"]);
  });

  it("--as picks the name", async () => {
    expect((await add(["fetch", "--as", "web"])).code).toBe(ExitCode.Ok);
    expect(Object.keys(await servers())).toEqual(["web"]);
  });

  it("memory keeps its graph in the config home, not in the npx cache shared by every home and lost with the next pinned version", async () => {
    expect((await add(["memory"])).code).toBe(ExitCode.Ok);
    expect((await servers()).memory?.env).toEqual({ MEMORY_FILE_PATH: join(home, "memory.jsonl") });
  });

  it("--env adds to a catalog server's environment", async () => {
    expect((await add(["memory", "-e", "MEMORY_FILE_PATH=/data/memory.json"])).code).toBe(ExitCode.Ok);
    expect((await servers()).memory).toMatchObject({ args: ["-y", "@modelcontextprotocol/server-memory@2026.8.31"], env: { MEMORY_FILE_PATH: "/data/memory.json" } });
  });

  it("--dir is stored as an absolute, existing folder", async () => {
    await mkdir(join(project, "docs"));
    expect((await add(["filesystem", "--dir", "docs"])).code).toBe(ExitCode.Ok);
    expect((await servers()).filesystem?.args).toEqual(["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", join(project, "docs")]);
  });

  it("filesystem: its folder is also its only root (server-filesystem takes the roots offered as its folders), and says so", async () => {
    // Offered the folder a run starts in instead, `mcpvm run` from / let it read /etc/passwd (tests/e2e/filesystem-roots.test.ts).
    await mkdir(join(project, "data"));
    const result = await add(["filesystem", "--dir", "data"]);
    expect(result.code).toBe(ExitCode.Ok);
    const dir = join(project, "data");
    expect((await servers()).filesystem).toMatchObject({ roots: [dir] });
    expect(result.stderr).toContain(`filesystem is offered ${dir} as its only root`);
    const git = await add(["git", "--dir", "."]);
    expect(git.stderr).not.toContain("as its only root"); // not "root": the PATH folders of a missing-uvx warning may hold /root
    expect((await servers()).git?.roots).toBeUndefined();
  });

  it("without --dir, says which folder the server was given (the current one), and how to give another", async () => {
    const result = await add(["filesystem"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect((await servers()).filesystem?.args).toEqual(["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", project]);
    expect(result.stderr).toContain(`filesystem works on ${project} (the current folder, as no --dir was given); another: \`mcpvm mcp add filesystem --dir <folder> --overwrite\`.`);
    expect((await add(["git", "--dir", "."])).stderr).not.toContain("no --dir was given");
  });

  it("every npx and uvx package of the catalog is pinned to an exact version", () => {
    for (const server of KNOWN_SERVERS) {
      const spec = server.command === "npx" ? server.args.find((a) => !a.startsWith("-")) : server.command === "uvx" ? server.args[0] : undefined;
      expect(spec, server.name).toBeDefined();
      expect(spec, server.name).toMatch(/^(@[a-z0-9-]+\/)?[a-z0-9.-]+@\d+\.\d+\.\d+$/);
    }
  });

  it("archived packages say so in their description", () => {
    for (const server of KNOWN_SERVERS.filter((s) => s.homepage.includes("servers-archived"))) {
      expect(server.archived, server.name).toBe(true);
      expect(server.description, server.name).toMatch(/archived/);
    }
  });
});

describe("mcp add: relative paths", () => {
  it("`-- node ./server.mjs` stores the absolute path, resolved against the folder of the add", async () => {
    await writeFile(join(project, "server.mjs"), "// a server\n");
    await mkdir(join(project, "lib"));
    await writeFile(join(project, "lib", "tool.py"), "# a server\n");
    const result = await add(["mine", "--", "node", "./server.mjs", "--config=./lib", "lib/tool.py", "--flag", "@scope/pkg@1.0.0"]);
    expect(result.code).toBe(ExitCode.Ok);
    expect((await servers()).mine).toMatchObject({ command: "node", args: [join(project, "server.mjs"), `--config=${join(project, "lib")}`, join(project, "lib", "tool.py"), "--flag", "@scope/pkg@1.0.0"] });
    expect(result.stderr).toContain(`stored ./server.mjs as ${join(project, "server.mjs")}`);
  });

  it("a relative command is resolved too", async () => {
    await mkdir(join(project, "bin"));
    await writeFile(join(project, "bin", "server"), "#!/bin/sh\n", { mode: 0o755 });
    expect((await add(["mine", "--", "./bin/server"])).code).toBe(ExitCode.Ok);
    expect((await servers()).mine?.command).toBe(join(project, "bin", "server"));
  });

  it("a relative path that names nothing is refused", async () => {
    const result = await add(["mine", "--", "node", "./missing.mjs"]);
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain(`the argument "./missing.mjs" does not exist relative to ${project}`);
    const command = await add(["mine", "--", "./nothing/here"]);
    expect(command.code).toBe(ExitCode.Usage);
    expect(command.stderr).toContain('the command "./nothing/here" does not exist');
    expect(await servers()).toEqual({});
  });

  it("--cwd records the folder and keeps paths relative to it (which must exist there)", async () => {
    await mkdir(join(project, "srv"));
    await writeFile(join(project, "srv", "server.mjs"), "// a server\n");
    expect((await add(["mine", "--cwd", "srv", "--", "node", "./server.mjs"])).code).toBe(ExitCode.Ok);
    expect((await servers()).mine).toMatchObject({ command: "node", args: ["./server.mjs"], cwd: join(project, "srv") });
    const missing = await add(["other", "--cwd", "srv", "--", "node", "./nope.mjs"]);
    expect(missing.code).toBe(ExitCode.Usage);
    expect(missing.stderr).toContain(`does not exist relative to ${join(project, "srv")}`);
  });
});

describe("mcp add --help", () => {
  it("has its own usage with every form and example", () => {
    const text = ADD_USAGE;
    expect(text).toContain("--transport http|sse <url>");
    expect(text).toContain("-e, --env KEY=VALUE");
    expect(text).toContain("mcpvm mcp add fetch --as web");
  });
});
