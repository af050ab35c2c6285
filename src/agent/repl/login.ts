import { browserOpener, type LoginInteraction } from "../../mcp/oauth/index.js";
import type { CommandContext } from "../../terminal/command.js";
import { displayBlock } from "../../terminal/display.js";
import { writeLine } from "../../terminal/io.js";
import type { ReplPerson } from "./person.js";

/**
 * In the REPL a server that needs an OAuth login is offered one on the spot (the person answers at
 * the prompt); without a terminal to ask on, the call fails with the `mcpvm mcp login` command.
 */
export function replLoginInteraction(context: CommandContext, person: ReplPerson): LoginInteraction | undefined {
  if (!context.interactive) return undefined;
  return {
    say: (text) => writeLine(context.io.stderr, displayBlock(text)),
    browser: browserOpener(context.io.env),
    confirmLogin: (server) => person.confirm(`server ${server} needs login (OAuth).`, "Log in now (opens a browser)?"),
  };
}
