import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { displayInline } from "../../terminal/display.js";
import { errorMessage } from "../../util/errors.js";
import { LlmRequestError, modelRequestError } from "../llm/model-error.js";
import type { ResolvedModel } from "../llm/model-config.js";

/** MCP's code for "the user rejected the sampling request" (the spec's example uses -1). */
export const SAMPLING_REJECTED = -1;

export interface SamplingFailure {
  /** For the person: the typed error's code and whole message (model, address, status, next step). */
  readonly told: string;
  /** For the server: a JSON-RPC error that says what failed, without the client's addresses, keys or stacks. */
  readonly error: ProtocolError;
}

/**
 * What a model request that failed while answering a server's sampling request becomes. The person
 * gets the same LLM_REQUEST_FAILED error a chat message gets; the server, which is not the person's
 * to trust with the endpoint's address or the provider's text, gets the model, the HTTP status and
 * the code, as a JSON-RPC error (-32603, or -1 when the person cancelled the reply).
 */
export function samplingFailure(thrown: unknown, model: ResolvedModel, server: string, redact: (text: string) => string, stoppedBy: "person" | "server" | undefined): SamplingFailure {
  const modelName = `${model.provider}:${model.model}`;
  const about = `${displayInline(server)}'s sampling request`;
  if (stoppedBy === "person") {
    const message = `The model's reply to ${about} was cancelled by the user; nothing was returned.`;
    return { told: message, error: new ProtocolError(SAMPLING_REJECTED, message) };
  }
  // The server withdrew its request (or hung up): it waits for no answer, the person learns why the reply stopped.
  if (stoppedBy === "server") return { told: `${displayInline(server)} withdrew its sampling request; the model's reply was stopped.`, error: new ProtocolError(ProtocolErrorCode.InternalError, "The sampling request was withdrawn.") };
  const typed = modelRequestError(thrown, model, redact, "sampling");
  if (typed instanceof LlmRequestError) {
    const status = typeof typed.data?.status === "number" ? typed.data.status : undefined;
    const what = typed.data?.midAnswer === true ? "broke off its answer" : status === undefined ? "could not reach its endpoint" : `got HTTP ${status} from its endpoint`;
    return {
      told: `The model could not answer ${about}: [${typed.code}] ${typed.message}`,
      error: new ProtocolError(ProtocolErrorCode.InternalError, `The client's model (${modelName}) ${what}, so it cannot answer this sampling request (${typed.code}).`, {
        code: typed.code,
        model: modelName,
        ...(status === undefined ? {} : { status }),
      }),
    };
  }
  // Not the endpoint's answer (a bug, a reply the SDK could not read): the details stay with the person.
  return {
    told: `The model could not answer ${about}: ${redact(errorMessage(thrown))}`,
    error: new ProtocolError(ProtocolErrorCode.InternalError, `The client's model (${modelName}) failed to answer this sampling request; the client's user was told why.`, { code: "LLM_SAMPLING_FAILED", model: modelName }),
  };
}
