import type { ConfirmCall } from "../../mcp/service/index.js";
import type { CommandContext } from "../../terminal/command.js";
import { writeLine } from "../../terminal/io.js";
import { confirm } from "../../terminal/prompt.js";
import { renderCallConfirmation } from "../../terminal/render/call-confirmation.js";

/**
 * Per-call confirmation for a command run by a person: the call is shown on stderr and asked about
 * on a terminal; --yes answers yes (the call stays shown); with neither, it is refused as
 * `no-terminal`, which the guest is told apart from a person's no.
 */
export function askOnTerminal(context: CommandContext): ConfirmCall {
  return async (request) => {
    context.io.stderr.write(`${renderCallConfirmation(request)}\n`);
    const ok = await confirm(context, "Allow this call?");
    if (ok || context.interactive) return ok;
    writeLine(context.io.stderr, `Not confirmed: no terminal to ask on. Rerun with --yes, or set \`"confirm": "never"\` for server "${request.server}" in config.json.`);
    return "no-terminal";
  };
}
