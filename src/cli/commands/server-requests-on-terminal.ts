import type { ServerRequestHooks } from "../../mcp/client-manager/index.js";
import type { CommandContext } from "../../terminal/command.js";
import { askElicitationOnTerminal } from "../../terminal/elicitation-prompt.js";

/**
 * How `run`, `mcp call` and the REPL answer an MCP server's own requests during a call. Elicitation
 * is asked of the person at the terminal (--yes does not answer for them: a form is not a
 * confirmation), and declined with a reason where there is none. Sampling is not offered: these
 * faces have no model, so servers are told at initialize that this client cannot sample.
 */
export function serverRequestsOnTerminal(context: CommandContext, atTerminal: boolean): ServerRequestHooks {
  const asking: CommandContext = { ...context, interactive: atTerminal };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    elicitationModes: { form: true, url: true },
    // One question at a time: concurrent calls ($batch, Promise.all) must not interleave two forms.
    elicit: (params, ctx) => {
      const answer = queue.then(() => askElicitationOnTerminal(asking, ctx.server, params.mode === "url" ? { mode: "url", message: params.message, url: params.url } : { message: params.message, requestedSchema: params.requestedSchema }));
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}
