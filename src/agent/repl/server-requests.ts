import type { McpvmHost } from "../../host/index.js";
import { localRoots, type ServerRequestHooks } from "../../mcp/client-manager/index.js";
import { auditedElicit } from "../../mcp/elicitation/audited.js";
import type { CommandContext } from "../../terminal/command.js";
import { askElicitationOnTerminal, elicitationRequestOf } from "../../terminal/elicitation-prompt.js";
import type { ResolvedModel } from "../llm/model-config.js";
import { samplingHook, type SamplingPerson } from "../sampling/index.js";
import type { ReplPerson } from "./person.js";

/**
 * How the REPL answers an MCP server's own requests during a guest call. Both go to the person
 * through the REPL's line reader and question queue, so a form, a sampling request and a call
 * confirmation never read the same keys: elicitation is asked as a form; sampling is shown and,
 * once the person says yes, answered by the REPL's current model (/model applies). Roots: the
 * working directory, or config.json `roots`, as for `mcpvm run`.
 */
export function replServerRequests(host: McpvmHost, context: CommandContext, person: ReplPerson, model: () => ResolvedModel, step: () => AbortSignal | undefined): ServerRequestHooks {
  const record = (event: Parameters<McpvmHost["audit"]["record"]>[0]) => host.audit.record(event);
  const sampler: SamplingPerson = {
    get canAsk() {
      return person.atKeyboard;
    },
    confirm: (details, question, signal) => person.confirm(details, question, signal),
    tell: (line) => person.tell(line),
    progress: (text, work) => person.progress(text, work),
  };
  return {
    elicitationModes: { form: true, url: true },
    listRoots: async () => localRoots(host.config.roots, context.io.cwd, context.io.env.HOME),
    elicit: auditedElicit(
      (params, ctx) => person.exclusive(() => askElicitationOnTerminal({ ...context, interactive: person.atKeyboard }, ctx.server, elicitationRequestOf(params), { ask: (question) => person.askLine(question, ctx.signal) })),
      record,
    ),
    sample: samplingHook({ person: sampler, model, audit: record, redact: (text) => host.redactor.redact(text), cancelled: step }),
  };
}
