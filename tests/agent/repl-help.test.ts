import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpCommand } from "../../src/cli/commands/mcp/index.js";
import { pluginCommand } from "../../src/cli/commands/plugin.js";
import { profileCommand } from "../../src/cli/commands/profile.js";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

describe("/help and a bare slash", () => {
  let server: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await cleanup?.();
  });

  it("/help <command> shows that command (or names an unknown one); a lone / is not a message to the model", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    server = await startScriptedLlmServer([{ text: "model reached" }]);
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url });
    await repl.start();
    await repl.command("/help timeout");
    await repl.expect("/timeout  Show or set the wall-clock budget of each run");
    await repl.command("/help nothing");
    await repl.expect("unknown command /nothing. /help lists the commands.");
    await repl.command("/");
    await repl.expect("unknown command /. /help lists the commands.");
    // A typo gets the closest command, as `mcpvm rn` does on the command line (docs/USAGE.md, Did you mean).
    await repl.command("/modle default");
    await repl.expect('unknown command /modle; did you mean "/model"? /help lists the commands.');
    await repl.command("/help tokns");
    await repl.expect('unknown command /tokns; did you mean "/tokens"? /help lists the commands.');
    // Two letters the wrong way round, in a short name.
    await repl.command("/hepl");
    await repl.expect('unknown command /hepl; did you mean "/help"? /help lists the commands.');
    await repl.command("/mpc list");
    await repl.expect('unknown command /mpc; did you mean "/mcp"? /help lists the commands.');
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(server.requests).toHaveLength(0);
    // One command's line, not the whole list.
    expect(repl.transcript).not.toContain("Token usage");
  }, 30_000);

  it("a shared command's unknown subcommand gets the closest one, and its usage hints name slash commands", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "" });
    await repl.start();
    await repl.enableMcp();
    await repl.command("/mcp lst");
    await repl.expect('/mcp: unknown command "lst"; did you mean "list"? See `/mcp --help`.');
    await repl.command("/plugin frob");
    await repl.expect('/plugin: unknown command "frob". See `/plugin --help`.');
    await repl.command("/plugin lsit");
    await repl.expect('/plugin: unknown command "lsit"; did you mean "list"? See `/plugin --help`.');
    await repl.command("/profile aply");
    await repl.expect('/profile: unknown command "aply"; did you mean "apply"? See `/profile --help`.');
    await repl.command("/mcp add");
    await repl.expect("See `/mcp add --help`.");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(repl.transcript).not.toContain("mcpvm mcp");
    expect(repl.transcript).not.toContain("mcpvm plugin");
    expect(repl.transcript).not.toContain("mcpvm profile");
  }, 30_000);

  it("/exit, /new and /tokens with words after them are refused, not run with the words ignored", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    server = await startScriptedLlmServer([{ text: "model reached" }]);
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url });
    await repl.start();
    await repl.command("/exit now");
    await repl.expect('/exit takes no arguments (got "now"); type /exit alone.');
    await repl.command("/new chat please");
    await repl.expect('/new takes no arguments (got "chat please"); type /new alone.');
    await repl.command("/tokens all");
    await repl.expect("/tokens takes no arguments");
    expect(repl.transcript).not.toContain("New conversation.");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(server.requests).toHaveLength(0);
  }, 30_000);
});

describe("docs/USAGE.md's slash-command table", () => {
  it("lists every subcommand of /plugin, /mcp and /profile (they are exactly `mcpvm plugin|mcp|profile …`)", async () => {
    const usage = await readFile(join(import.meta.dirname, "../../docs/USAGE.md"), "utf8");
    for (const command of [pluginCommand, mcpCommand, profileCommand]) {
      const row = new RegExp(`^\\| \`/${command.name} ([^\`]+)\` \\|`, "m").exec(usage);
      expect(row, command.name).not.toBeNull();
      expect(row?.[1]?.split("\\|"), command.name).toEqual(command.subcommands);
    }
  });
});
