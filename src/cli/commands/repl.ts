import { COMMAND_SUMMARIES } from "./summaries.js";
import { parseCommandArgs } from "../../terminal/args.js";
import type { Command } from "../../terminal/command.js";
import { mcpCommand } from "./mcp/index.js";
import { pluginCommand } from "./plugin.js";
import { profileCommand } from "./profile.js";

const USAGE = `Usage: mcpvm [global options] [--resume <id|last>]        (or: mcpvm repl …)

The interactive agent: chat with a model that writes JavaScript calling your MCP servers as
modules, and run JavaScript yourself with /run. /help inside lists the slash commands.
Configure a model with MCPVM_MODEL (see docs/USAGE.md); without one everything but chat works.
Ctrl-C cancels the running step; Ctrl-D or /exit leaves. /save saves the conversation;
--resume <id|last> carries on from a saved one.`;

export const replCommand: Command = {
  name: "repl",
  summary: COMMAND_SUMMARIES.repl,
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs("repl", args, { resume: { type: "string" } }, 0);
    const resume = typeof values.resume === "string" ? values.resume : undefined;
    // The agent (LLM SDK, editor) is loaded when the REPL starts, not by every command.
    const { runRepl } = await import("../../agent/repl/index.js");
    return runRepl({ context, sharedCommands: [pluginCommand, mcpCommand, profileCommand], ...(resume === undefined ? {} : { resume }) });
  },
};
