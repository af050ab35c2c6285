import { ProtocolError, ProtocolErrorCode, type CreateMessageResult } from "@modelcontextprotocol/client";
import type { AuditEvent } from "../../audit-log/index.js";
import type { ServerRequestContext } from "../../mcp/client-manager/index.js";
import { displayBlock, displayInline } from "../../terminal/display.js";
import { errorMessage } from "../../util/errors.js";
import { DEFAULT_SAMPLING_MAX_TOKENS, type ResolvedModel } from "../llm/model-config.js";
import { sampleWithModel } from "./answer.js";
import { decideSampling, deniedMessage, type SamplingRefusal } from "./decide.js";
import { SAMPLING_REJECTED, samplingFailure } from "./failure.js";
import { renderSamplingRequest, SHOWN_CHARS, viewSamplingRequest, type SamplingParams, type SamplingView } from "./request-view.js";

export { SAMPLING_REJECTED };

/** The person a face puts in front of sampling: the REPL's (its line reader) or the terminal's. */
export interface SamplingPerson {
  /** Someone at a terminal can be asked (false with no TTY). */
  readonly canAsk: boolean;
  /** Shows `details` and asks a yes/no question; no, Ctrl-C or an aborted signal is false. */
  confirm(details: string, question: string, signal: AbortSignal): Promise<boolean>;
  /** One line for the person (stderr). */
  tell(line: string): void;
  /** Work the person waits for (a spinner on a terminal). */
  progress<T>(text: string, work: () => Promise<T>): Promise<T>;
}

export interface SamplingHookOptions {
  readonly person: SamplingPerson;
  /** The configured model (the REPL's current one); throws when none is configured. */
  readonly model: () => ResolvedModel;
  /** Recorded for every request: answered or why not. */
  readonly audit: (event: AuditEvent) => Promise<void>;
  /** Known secrets out of what the person is shown. */
  readonly redact: (text: string) => string;
  /** The face's own cancellation (the REPL's Ctrl-C on the running step), besides the server's. */
  readonly cancelled?: () => AbortSignal | undefined;
  /** Asks the model (tests and faces may replace it; default: the AI SDK with the resolved model). */
  readonly sample?: typeof sampleWithModel;
}

export type SamplingHook = (params: SamplingParams, ctx: ServerRequestContext) => Promise<CreateMessageResult>;

/**
 * `sampling/createMessage` from an upstream server, answered by the configured model once the
 * person has read the request and said yes. Every other outcome (nothing mcpvm can do, no model,
 * nobody to ask, the person's no) is a line to the person, an audit entry, and an error to the
 * server that says why. The model writes at most min(maxTokens, model.samplingMaxTokens) tokens.
 */
export function samplingHook(options: SamplingHookOptions): SamplingHook {
  const answer = answerSampling(options);
  // Whatever else fails on the way (the audit log cannot be written): the person reads why; the
  // server gets a JSON-RPC error, not the client's message with its paths, nor its error data.
  return (params, ctx) =>
    answer(params, ctx).catch((error: unknown) => {
      if (error instanceof ProtocolError) throw error;
      options.person.tell(`${displayInline(ctx.server)}'s sampling request failed: ${options.redact(errorMessage(error))}`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, "The client failed to answer this sampling request; the client's user was told why.");
    });
}

function answerSampling(options: SamplingHookOptions): SamplingHook {
  const { person } = options;
  return async (params, ctx) => {
    const cap = capOf(options.model);
    const view = viewSamplingRequest(ctx.server, params, cap);
    const decision = decideSampling(view, { model: options.model, canAsk: person.canAsk });
    if (decision.kind === "refuse") return refuse(options, view, decision.refusal, decision.message);
    const model = decision.model;
    const modelName = `${model.provider}:${model.model}`;
    // Characters, not tokens: loading the tokenizer takes seconds, and the person is waiting for the question.
    const details = options.redact(renderSamplingRequest(view, modelName));
    const yes = await person.confirm(details, `Send this to ${displayInline(modelName)} and return its reply to ${displayInline(ctx.server)}?`, ctx.signal);
    if (!yes) return refuse(options, view, "denied", deniedMessage(ctx.server));
    await options.audit({
      event: "mcp.sampling",
      subject: ctx.server,
      decision: "allowed",
      details: { model: modelName, maxTokens: view.grantedMaxTokens, requestedMaxTokens: view.requestedMaxTokens, messages: view.messages.length, inputChars: view.inputChars },
    });
    let result: CreateMessageResult;
    const face = options.cancelled?.();
    const signal = face === undefined ? ctx.signal : AbortSignal.any([ctx.signal, face]);
    try {
      result = await person.progress(`${displayInline(modelName)} is writing for ${displayInline(ctx.server)}…`, () => (options.sample ?? sampleWithModel)(model, params, view.grantedMaxTokens, signal));
    } catch (error) {
      const failure = samplingFailure(error, model, ctx.server, options.redact, ctx.signal.aborted ? "server" : face?.aborted === true ? "person" : undefined);
      person.tell(failure.told);
      throw failure.error;
    }
    const text = result.content.type === "text" ? result.content.text : "";
    person.tell(`Reply sent to ${displayInline(ctx.server)} (${text.length.toLocaleString("en-US")} characters, ${result.stopReason ?? "done"}):\n${indent(displayBlock(options.redact(shorten(text))))}`);
    return result;
  };
}

async function refuse(options: SamplingHookOptions, view: SamplingView, refusal: SamplingRefusal, message: string): Promise<never> {
  options.person.tell(message);
  await options.audit({ event: "mcp.sampling", subject: view.server, decision: refusal, details: { messages: view.messages.length, requestedMaxTokens: view.requestedMaxTokens } });
  throw new ProtocolError(SAMPLING_REJECTED, message);
}

/** The configured cap, or the default when the model section cannot be read (the decision reports that). */
function capOf(model: () => ResolvedModel): number {
  try {
    return model().samplingMaxTokens;
  } catch {
    return DEFAULT_SAMPLING_MAX_TOKENS;
  }
}

function shorten(text: string): string {
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}\n… (${(text.length - SHOWN_CHARS).toLocaleString("en-US")} more characters)`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
