import { createServer, type Server } from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PluginError } from "../../src/plugin-system/errors.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { exitCodeFor } from "../../src/terminal/report-error.js";
import { McpvmError } from "../../src/util/errors.js";
import { cli, makeHome, memoryServer, type E2eHome } from "../e2e/helpers.js";

/**
 * Exit codes follow the table in docs/USAGE.md everywhere: 2 usage (unknown names included),
 * 3 config invalid, 5 approval, 6 unavailable. Config typos are reported as themselves (not as
 * "createHostFunctions failed", exit 1) with a did-you-mean for the key.
 */
let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ memory: memoryServer(join(dir, "memory.jsonl")) }), approve: [] });
});
afterAll(async () => home?.cleanup());

async function editConfig(change: (config: Record<string, unknown>) => void): Promise<string> {
  const file = join(home.dir, "config.json");
  const before = await readFile(file, "utf8");
  const config = JSON.parse(before) as Record<string, unknown>;
  change(config);
  await writeFile(file, JSON.stringify(config, null, 2));
  return before;
}

describe("the exit-code table (pure)", () => {
  it("maps unknown names to 2, config to 3, approval to 5, unavailable to 6", () => {
    const code = (c: string) => exitCodeFor(new McpvmError(c, ""));
    for (const c of ["USAGE", "MCP_SERVER_UNKNOWN", "MCP_CONFIG_SERVER_NOT_FOUND", "MCP_CONFIG_SERVER_EXISTS", "PLUGIN_NOT_FOUND", "PROFILE_UNKNOWN", "PROFILE_NONE_GIVEN", "GATEWAY_TOOLSET_UNKNOWN", "MCP_SERVER_ARGUMENT_INVALID", "MCP_IMPORT_UNREADABLE"]) {
      expect(code(c), c).toBe(ExitCode.Usage);
    }
    for (const c of ["CONFIG_INVALID", "MCP_CONFIG_INVALID", "MCP_IMPORT_INVALID_JSON", "PROFILE_INVALID", "INVALID_LIMITS", "LLM_CONFIG_INVALID", "CONFIG_HOME_INVALID", "FILE_LOCK_FAILED"]) expect(code(c), c).toBe(ExitCode.Config);
    for (const c of ["MCP_NOT_APPROVED", "MCP_SERVER_DISABLED", "MCP_PLUGIN_NOT_ENABLED", "PLUGIN_NOT_ENABLED", "PLUGIN_NOT_APPROVED"]) expect(code(c), c).toBe(ExitCode.ApprovalRequired);
    expect(code("CANCELLED")).toBe(ExitCode.Interrupted);
    for (const c of ["GATEWAY_PORT_IN_USE", "MCP_CONNECT_TIMEOUT", "LLM_NOT_CONFIGURED", "MCP_CALL_TIMEOUT", "FILE_LOCK_TIMEOUT"]) expect(code(c), c).toBe(ExitCode.Unavailable);
  });

  it("a plugin that failed to load because of a config error counts as that config error (3)", () => {
    const inner = new McpvmError("MCP_CONFIG_INVALID", "config.json is not valid");
    expect(exitCodeFor(new PluginError("PLUGIN_LOAD_FAILED", "plugin mcp: createHostFunctions failed", { cause: inner }))).toBe(ExitCode.Config);
    // Any other load failure is the plugin's set-up too (its code or config in the home), not the script's: 3, not 1.
    expect(exitCodeFor(new PluginError("PLUGIN_LOAD_FAILED", "plugin x: createHostFunctions failed", { cause: new Error("boom") }))).toBe(ExitCode.Config);
  });

  it("a tool schema too complex to type is the server's problem (6), not the script's", () => {
    expect(exitCodeFor(new McpvmError("TYPEGEN_SCHEMA_TOO_COMPLEX", "schema has more than 5000 sub-schemas"))).toBe(ExitCode.Unavailable);
  });
});

describe("config typos", () => {
  it('"comand" in a server: exit 3, the inner message with a did-you-mean, not the loader\'s wrapper', async () => {
    const before = await editConfig((c) => ((c.mcpServers as Record<string, unknown>).typo = { comand: "node", args: ["x.js"] }));
    try {
      const out = await cli(home, ["mcp", "list"]);
      expect(out.code).toBe(ExitCode.Config);
      expect(out.stderr).toContain("[MCP_CONFIG_INVALID]");
      expect(out.stderr).toContain('mcpServers.typo: Unrecognized key: "comand"; did you mean "command"?');
      expect(out.stderr).not.toContain("createHostFunctions");
      expect(out.stderr).not.toContain("PLUGIN_LOAD_FAILED");
      const json = await cli(home, ["--json", "mcp", "list"]);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "MCP_CONFIG_INVALID" } });
    } finally {
      await writeFile(join(home.dir, "config.json"), before);
    }
  });

  it('"args": "server.js" (a string) is exit 3 too', async () => {
    const before = await editConfig((c) => ((c.mcpServers as Record<string, unknown>).str = { command: "node", args: "server.js" }));
    try {
      const out = await cli(home, ["mcp", "list"]);
      expect(out.code).toBe(ExitCode.Config);
      expect(out.stderr).toContain("mcpServers.str.args");
    } finally {
      await writeFile(join(home.dir, "config.json"), before);
    }
  });

  it('top-level "mcpservers" suggests "mcpServers"; a key inside plugins gets one too', async () => {
    const before = await editConfig((c) => {
      c.mcpservers = c.mcpServers;
      delete c.mcpServers;
      (c.plugins as Record<string, Record<string, unknown>>).mcp!.enabeld = true;
    });
    try {
      const out = await cli(home, ["mcp", "list"]);
      expect(out.code).toBe(ExitCode.Config);
      expect(out.stderr).toContain('(root): Unrecognized key: "mcpservers"; did you mean "mcpServers"?');
      expect(out.stderr).toContain('plugins.mcp: Unrecognized key: "enabeld"; did you mean "enabled"?');
    } finally {
      await writeFile(join(home.dir, "config.json"), before);
    }
  });
});

describe("argument errors are exit 2 and never blame config.json", () => {
  it('mcp add "My Server": not a valid server name, did you mean my-server; nothing written', async () => {
    const before = await readFile(join(home.dir, "config.json"), "utf8");
    const out = await cli(home, ["mcp", "add", "My Server", "--", "node", "server.js"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain('"My Server" is not a valid server name');
    expect(out.stderr).toContain("did you mean my-server?");
    expect(out.stderr).not.toContain("config.json is not valid");
    expect(await readFile(join(home.dir, "config.json"), "utf8")).toBe(before);
    expect((await cli(home, ["mcp", "add", "mcp-atlassian", "--", "node", "s.js"])).stderr).toContain("did you mean atlassian?");
  });

  it("adding a name that exists is exit 2 and names --overwrite", async () => {
    const out = await cli(home, ["mcp", "add", "memory", "--", "node", "other.js"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("--overwrite");
  });

  it("mcp revoke nosuch is an unknown server (exit 2), not 'had no approval' and {revoked}", async () => {
    const out = await cli(home, ["--json", "mcp", "revoke", "nosuch"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(JSON.parse(out.stdout)).toMatchObject({ ok: false, error: { code: "MCP_SERVER_UNKNOWN" } });
    expect(out.stdout).not.toContain('"revoked"');
    // A configured server without an approval still says so, exit 0.
    const configured = await cli(home, ["mcp", "revoke", "memory"]);
    expect(configured).toMatchObject({ code: 0, stdout: "memory had no approval\n" });
  });

  it("plugin revoke of a name that is no plugin is exit 2", async () => {
    const out = await cli(home, ["plugin", "revoke", "fs-rea"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain('did you mean "fs-read"?');
  });

  it("gateway token: revoking a client that has none, and creating one that exists, are exit 2 (they were 1, a script's failure)", async () => {
    const unknown = await cli(home, ["gateway", "token", "revoke", "nobody"]);
    expect(unknown.stderr).toContain('[GATEWAY_CLIENT_UNKNOWN] no client named "nobody" has a token');
    expect(unknown.code).toBe(ExitCode.Usage);
    expect((await cli(home, ["gateway", "token", "create", "twice"])).code).toBe(ExitCode.Ok);
    const again = await cli(home, ["gateway", "token", "create", "twice"]);
    expect(again.stderr).toContain('[GATEWAY_CLIENT_EXISTS] a client named "twice" already has a token');
    expect(again.code).toBe(ExitCode.Usage);
    expect((await cli(home, ["gateway", "token", "revoke", "twice"])).code).toBe(ExitCode.Ok);
  });

  it("profile apply with no name, and with an unknown name, are exit 2", async () => {
    const none = await cli(home, ["profile", "apply"]);
    expect(none.code).toBe(ExitCode.Usage);
    expect(none.stderr).toContain("name at least one profile");
    expect((await cli(home, ["profile", "apply", "nosuch"])).code).toBe(ExitCode.Usage);
  });

  it("plugin config --unset removes a stored setting (a bad key no longer blocks every edit)", async () => {
    expect((await cli(home, ["plugin", "config", "fs-read", "baseDir=/tmp", "typoKey=1"])).code).toBe(0);
    const out = await cli(home, ["--json", "plugin", "config", "fs-read", "--unset", "typoKey"]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).config).toEqual({ baseDir: "/tmp" });
    const missing = await cli(home, ["plugin", "config", "fs-read", "--unset", "basedir"]);
    expect(missing.code).toBe(ExitCode.Usage);
    expect(missing.stderr).toContain('has no setting "basedir" to unset; did you mean "baseDir"?');
  });
});

describe("mcpvm run --help names every exit code run returns", () => {
  it("3 for a broken config.json (and 6 for an engine that cannot be used), beside the others", async () => {
    const before = await editConfig((c) => (c.engin = "quickjs"));
    try {
      expect((await cli(home, ["run", "-e", "return 1"])).code).toBe(ExitCode.Config);
    } finally {
      await writeFile(join(home.dir, "config.json"), before);
    }
    // 6 (HYPERLIGHT_NOT_INSTALLED and the like) is the table's; not run here, as a machine with Hyperlight would run the script.
    const help = (await cli(home, ["run", "--help"])).stdout;
    for (const code of ["0 ok", "1 the script failed", "2 usage", "3 config.json (or a state file) invalid", "4 a limit was hit", "5 approval needed", "6 an engine or server unavailable", "130 interrupted"]) {
      expect(help, code).toContain(code);
    }
  });
});

describe("serve --http on a port that is taken", () => {
  let blocker: Server;
  let port = 0;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    port = (blocker.address() as { port: number }).port;
  });
  afterAll(async () => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('says "port N is in use; try --http 127.0.0.1:0", exit 6 (not INTERNAL, exit 1)', async () => {
    const out = await cli(home, ["serve", "--http", `127.0.0.1:${port}`]);
    expect(out.code).toBe(ExitCode.Unavailable);
    expect(out.stderr).toContain(`port ${port} is in use`);
    expect(out.stderr).toContain("try --http 127.0.0.1:0");
    expect(out.stderr).not.toContain("INTERNAL");
  });
});
