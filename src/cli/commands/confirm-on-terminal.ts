import type { ConfirmCall } from "../../mcp/service/index.js";
import { isVerbose, stderrColumns, type CommandContext } from "../../terminal/command.js";
import { REPL_START_WITH_YES } from "../../terminal/hints.js";
import { writeLine } from "../../terminal/io.js";
import { confirm, CancelledError } from "../../terminal/prompt.js";
import type { AskFlow } from "../../mcp/flow/index.js";

/**
 * Per-call confirmation for a command run by a person: the call is shown on stderr and asked about
 * on a terminal; --yes answers yes and leaves one line per call on stderr (the whole block with
 * --log-level debug); with neither, it is refused as `no-terminal`, which the guest is told apart
 * from a person's no.
 */
export function askOnTerminal(context: CommandContext): ConfirmCall {
  return async (request) => {
    // The renderers import the MCP service's helpers: loaded when a call is asked about, not by every `run`.
    const { renderCallConfirmation, renderYesConfirmation } = await import("../../terminal/render/call-confirmation.js");
    if (context.assumeYes) {
      writeLine(context.io.stderr, renderYesConfirmation(request, { verbose: isVerbose(context), columns: stderrColumns(context) }));
      return "yes-flag";
    }
    context.io.stderr.write(`${renderCallConfirmation(request)}\n`);
    const ok = await confirmOrInterrupted(context, "Allow this call?");
    if (ok || context.interactive) return ok;
    const rerun = context.face === "repl" ? REPL_START_WITH_YES : "Rerun with --yes";
    writeLine(context.io.stderr, `Not confirmed: no terminal to ask on. ${rerun}, or set \`"confirm": "never"\` for server "${request.server}" in config.json.`);
    return "no-terminal";
  };
}

/**
 * Asks about an information flow on a terminal; only where a person is there to answer (never with
 * --yes, which answers ordinary confirmations but never allows a flow): undefined otherwise, so the
 * `flows` policy decides.
 */
export function askFlowOnTerminal(context: CommandContext): AskFlow | undefined {
  if (!context.interactive) return undefined;
  return async (request) => {
    const { renderFlowConfirmation } = await import("../../terminal/render/flow-confirmation.js");
    context.io.stderr.write(`${renderFlowConfirmation(request)}\n`);
    return confirmOrInterrupted(context, "Allow this flow for the rest of this run?");
  };
}

/**
 * Ctrl-C at a call's question is a no for that call (recorded as declined, as the REPL does); the
 * command's own interrupt listener (onPromptInterrupt) ends the run or call, so nothing goes on.
 */
async function confirmOrInterrupted(context: CommandContext, question: string): Promise<boolean> {
  try {
    return await confirm(context, question);
  } catch (error) {
    if (error instanceof CancelledError) return false;
    throw error;
  }
}
