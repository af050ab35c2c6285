import { localRoots, type ServerRequestHooks } from "../../mcp/client-manager/index.js";
import type { AuditEvent } from "../../audit-log/index.js";
import type { CommandContext } from "../../terminal/command.js";
import { writeLine } from "../../terminal/io.js";
import { ask } from "../../terminal/prompt.js";
import { Spinner } from "../../terminal/spinner.js";

/**
 * How `run` and `mcp call` answer an MCP server's own requests during a call (the REPL installs its
 * own, on its line reader). Elicitation is asked of the person at the terminal. Sampling is shown
 * and, after a yes, answered by the configured model (config.json `model` or MCPVM_MODEL); with no
 * terminal or no model it is declined with a line that says why. --yes answers neither: a form or a
 * model's reply is not a confirmation. Every outcome goes to the audit log. Roots: the working
 * directory, or config.json `roots`.
 */
export function serverRequestsOnTerminal(context: CommandContext, atTerminal: boolean): ServerRequestHooks {
  const asking: CommandContext = { ...context, interactive: atTerminal };
  const record = async (event: AuditEvent) => (await context.host()).audit.record(event);
  let queue: Promise<unknown> = Promise.resolve();
  // One question at a time: concurrent calls ($batch, Promise.all) must not interleave two forms.
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = queue.then(work);
    queue = turn.catch(() => undefined);
    return turn;
  };
  // The form code (and its schemas) is loaded with a server's first request, not by every `run`.
  let elicit: Promise<NonNullable<ServerRequestHooks["elicit"]>> | undefined;
  const loadElicit = async (): Promise<NonNullable<ServerRequestHooks["elicit"]>> => {
    const [{ auditedElicit }, { askElicitationOnTerminal, elicitationRequestOf }] = await Promise.all([import("../../mcp/elicitation/audited.js"), import("../../terminal/elicitation-prompt.js")]);
    // The request's signal ends the form when the run that asked ends or the server gives up on it.
    return auditedElicit((params, ctx) => inTurn(() => askElicitationOnTerminal(asking, ctx.server, elicitationRequestOf(params), { ask: (question) => ask(asking, question, false, ctx.signal) })), record);
  };
  return {
    elicitationModes: { form: true, url: true },
    listRoots: async () => localRoots((await context.host()).config.roots, context.io.cwd, context.io.env.HOME),
    elicit: async (params, ctx) => (await (elicit ??= loadElicit()))(params, ctx),
    sample: (params, ctx) =>
      inTurn(async () => {
        // The model's SDK is loaded only when a server asks: a `run` that samples nothing never pays for it.
        const [{ samplingHook }, { configuredModel }, host] = await Promise.all([import("../../agent/sampling/index.js"), import("../../agent/llm/model-config.js"), context.host()]);
        const { stderr } = context.io;
        const hook = samplingHook({
          person: {
            canAsk: atTerminal,
            confirm: async (details, question, signal) => {
              writeLine(stderr, details);
              if (signal.aborted) return false;
              const answer = await ask(asking, `${question} [y/N] `, false, signal).catch(() => "");
              return /^y(es)?$/i.test(answer.trim());
            },
            tell: (line) => writeLine(stderr, line),
            progress: async (text, work) => {
              const spinner = new Spinner(stderr);
              spinner.start(text);
              try {
                return await work();
              } finally {
                spinner.stop();
              }
            },
          },
          model: () => configuredModel(host.config.model, host.paths.configFile, context.io.env),
          audit: record,
          redact: (text) => host.redactor.redact(text),
        });
        return hook(params, ctx);
      }),
  };
}
