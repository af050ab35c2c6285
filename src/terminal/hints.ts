import type { CommandContext } from "./command.js";

/**
 * Hints that name something to type must name it in the face they are shown in: the REPL runs the
 * CLI's own commands as slash commands (`/mcp approve x` is `mcpvm mcp approve x`), but it has no
 * command line to rerun, so `--yes` there means starting the REPL again.
 */

/** `mcpvm <command>` on the command line, `/<command>` in the REPL; `command` is written without `mcpvm `. */
export function commandHint(context: CommandContext, command: string): string {
  return context.face === "repl" ? `/${command}` : `mcpvm ${command}`;
}

/**
 * What to do when a question had nobody to answer it (no terminal, no --yes): `command` (without
 * `mcpvm `) is what asks again, `outcome` what --yes would have done ("approve it unattended").
 */
export function noTerminalHint(context: CommandContext, command: string, outcome: string): string {
  if (context.face !== "repl") return `rerun with --yes to ${outcome}`;
  return `this REPL's input or output is not a terminal: run \`mcpvm ${command}\` in a terminal, or start the REPL as \`mcpvm --yes\` to ${outcome}`;
}

/** A hint as a sentence of its own: its first letter upper-cased. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The REPL's way to have confirmations answered when nobody can be asked. */
export const REPL_START_WITH_YES = "Start the REPL as `mcpvm --yes` (this one's input or output is not a terminal)";
