import { describe, expect, it } from "vitest";
import { completeLine, type CompletionSource } from "../../src/agent/repl/completer.js";
import { splitArgs } from "../../src/agent/repl/render.js";
import { slashCommands } from "../../src/agent/repl/slash-commands.js";
import { mcpCommand } from "../../src/cli/commands/mcp/index.js";
import { pluginCommand } from "../../src/cli/commands/plugin.js";
import { profileCommand } from "../../src/cli/commands/profile.js";

const SLASH_COMMANDS = slashCommands([pluginCommand, mcpCommand, profileCommand]);
import { buildSystemMessage } from "../../src/agent/system-message.js";

const source: CompletionSource = {
  commands: SLASH_COMMANDS,
  names: async (kind) => ({ server: ["github", "memory"], plugin: ["fs-read", "mcp"], profile: ["default", "strict"], "known-server": ["memory", "fetch"] })[kind],
};

describe("tab completion", () => {
  it("completes slash commands, subcommands and server, plugin and profile names", async () => {
    expect(await completeLine("/pr", source)).toEqual([["/profile"], "/pr"]);
    expect(await completeLine("/mcp en", source)).toEqual([["enable"], "en"]);
    expect(await completeLine("/mcp enable m", source)).toEqual([["memory"], "m"]);
    expect(await completeLine("/plugin approve ", source)).toEqual([["fs-read", "mcp"], ""]);
    expect(await completeLine("/profile apply default s", source)).toEqual([["strict"], "s"]);
    expect(await completeLine("/mcp add f", source)).toEqual([["fetch"], "f"]);
  });

  it("never completes chat text or a second name where one is expected", async () => {
    expect(await completeLine("hello /mcp", source)).toEqual([[], "hello /mcp"]);
    expect(await completeLine("/mcp enable memory g", source)).toEqual([[], "g"]);
  });
});

describe("slash command arguments", () => {
  it("split like a shell: quotes group, backslashes escape", () => {
    expect(splitArgs(`add x --env 'A=two words' -- node "my server.js" a\\ b`)).toEqual(["add", "x", "--env", "A=two words", "--", "node", "my server.js", "a b"]);
    expect(splitArgs("  ")).toEqual([]);
    expect(splitArgs(`x ""`)).toEqual(["x", ""]);
  });
});

describe("the system message", () => {
  it("lists each enabled module on one line and says when MCP is off", () => {
    const text = buildSystemMessage({ modules: [{ module: "fs-read", kind: "plugin", summary: "Read files under the allowed roots." }], mcpEnabled: false });
    expect(text).toContain('Modules (require("host:<module>")):\n- fs-read: Read files under the allowed roots.');
    expect(text).toContain('MCP is off; manage {action: "enable", plugin: "mcp"} asks the person');
    const on = buildSystemMessage({ modules: [{ module: "mcp-memory", kind: "mcp", summary: "A knowledge graph." }], mcpEnabled: true, disabledServers: ["github"] });
    expect(on).toContain("- mcp-memory: A knowledge graph.");
    expect(on).not.toContain("MCP is off");
    expect(on).toContain("Disabled MCP servers (manage can enable): github");
    expect(on.length).toBeLessThan(1_000);
  });
});
