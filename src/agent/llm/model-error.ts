import { APICallError, InvalidResponseDataError, JSONParseError, RetryError, TypeValidationError } from "ai";
import { McpvmError, errorMessage } from "../../util/errors.js";
import type { ResolvedModel } from "./model-config.js";

/**
 * The model's endpoint failed a request (refused, rate-limited, unreachable, a context too long).
 * The SDK's own text ("Failed after 3 attempts. Last error: internal boom") says neither which model
 * nor what to do; this one names the model and endpoint, the HTTP status, and the next step.
 */
export class LlmRequestError extends McpvmError<"LLM_REQUEST_FAILED"> {}

/** What the request was for: the person's message (the REPL), or an MCP server's sampling request. */
export type ModelRequestPurpose = "chat" | "sampling";

const KEEP: Record<ModelRequestPurpose, string> = {
  chat: "The conversation is as it was before this message.",
  sampling: "The server was sent an error instead of a reply.",
};

/** The request's address without its query (where some gateways put a key). */
function endpoint(url: string | undefined, resolved: ResolvedModel): string {
  const raw = url ?? resolved.baseUrl;
  if (raw === undefined) return "its default endpoint";
  try {
    const parsed = new URL(raw);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return raw;
  }
}

/** The provider's reason: its JSON `error.message` when it sent one, else the SDK's message. */
function reason(error: APICallError): string {
  return error.message.trim() === "" ? `HTTP ${error.statusCode ?? "?"}` : error.message.trim();
}

/** A provider's "the conversation is too long" answer, by its error code or its usual wording. */
function contextTooLong(error: APICallError): boolean {
  const text = `${error.message} ${error.responseBody ?? ""}`;
  return /context_length_exceeded|context length|context window|too many tokens|prompt is too long|maximum context/i.test(text);
}

function nextStep(error: APICallError, resolved: ResolvedModel, purpose: ModelRequestPurpose): string {
  const status = error.statusCode;
  const key = resolved.apiKeySource ?? (resolved.provider === "anthropic" ? "MCPVM_API_KEY or ANTHROPIC_API_KEY" : "MCPVM_API_KEY or OPENAI_API_KEY");
  // A chat message is sent again by the person; a sampling request only when the server asks again.
  const again = purpose === "chat" ? "send the message again" : "run the call that asked again";
  if (status === undefined) return `Check that the server is running and that MCPVM_BASE_URL (or config.json model.baseUrl) names it, then ${again}.`;
  // A 200 whose body is not the protocol: often a web page or proxy at the configured address.
  if (status >= 200 && status < 300) return `Check that MCPVM_BASE_URL (or config.json model.baseUrl) names the provider's API itself (often ending in /v1), then ${again}.`;
  if (status === 401 || status === 403) return `Check the key in ${key}.`;
  if (status === 404) return "Check the model name (MCPVM_MODEL, or /model provider:model for this session) and the endpoint.";
  if (status === 429) return `The provider is rate-limiting: wait a moment and ${again}.`;
  if (status === 413 || contextTooLong(error)) return purpose === "chat" ? "The conversation no longer fits the model's context: /new starts a new one, and lower model.contextWindow in config.json to the model's real window so older tool results are left out in time." : "The server's request does not fit the model's context.";
  if (status >= 500) return `The provider failed: ${again}, or later.`;
  return purpose === "chat" ? "The provider refused the request: /new starts a new conversation if this one keeps failing." : "The provider refused the request.";
}

/**
 * Why an answer the endpoint had accepted (HTTP 200) broke off mid-stream, or undefined for any
 * other error. The SDK hands these over raw: a provider's error event is a bare object
 * (`{"message":"Overloaded","type":"server_error"}`), a cut stream "Response stream ended without a
 * finish reason.", a garbled chunk a JSON parser's message — none naming the model or what to do.
 */
function brokenStream(error: unknown): string | undefined {
  if (InvalidResponseDataError.isInstance(error)) return /finish reason/i.test(error.message) ? "the stream ended without a finish reason (the connection was cut, or the address is not the provider's API)" : `it sent data the client cannot use (${error.message.replace(/\.$/, "")})`;
  if (JSONParseError.isInstance(error) || TypeValidationError.isInstance(error)) return "it sent a chunk that is not valid JSON";
  // A provider's error event: a plain object, never an Error (those are the host's own failures).
  if (typeof error !== "object" || error === null || error instanceof Error) return undefined;
  const event = error as { message?: unknown; type?: unknown; code?: unknown };
  if (typeof event.message !== "string") return undefined;
  const kind = [event.type, event.code].find((k): k is string => typeof k === "string" && k !== "");
  return `with an error: ${event.message.trim().replace(/\.$/, "")}${kind === undefined ? "" : ` (${kind})`}`;
}

/**
 * What a person should see for an error a model request ended with; anything else passes through.
 * `scrub` takes secrets and host paths out of the provider's text (it can echo what it was sent).
 */
export function modelRequestError(error: unknown, resolved: ResolvedModel, scrub: (text: string) => string = (text) => text, purpose: ModelRequestPurpose = "chat"): unknown {
  const attempts = RetryError.isInstance(error) ? error.errors.length : 1;
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const model = `${resolved.provider}:${resolved.model}`;
  const broken = brokenStream(last);
  if (broken !== undefined) {
    const again = purpose === "chat" ? "send the message again" : "run the call that asked again";
    const what = `the model ${model} at ${endpoint(undefined, resolved)} broke off its answer${broken.startsWith("with ") ? " " : ": "}${broken}.`;
    return new LlmRequestError("LLM_REQUEST_FAILED", scrub(`${what} The provider failed mid-answer: ${again}, or later. ${KEEP[purpose]}`), {
      cause: error,
      data: { midAnswer: true, attempts, detail: scrub(errorMessage(last)) },
    });
  }
  if (!APICallError.isInstance(last)) return error;
  const where = endpoint(last.url, resolved);
  const tries = attempts > 1 ? ` (${attempts} attempts)` : "";
  const what =
    last.statusCode === undefined
      ? `the model ${model} could not be reached at ${where}${tries}: ${reason(last)}.`
      : `the model ${model} at ${where} answered HTTP ${last.statusCode}${tries}: ${reason(last)}`;
  return new LlmRequestError("LLM_REQUEST_FAILED", scrub(`${what.replace(/\.?$/, ".")} ${nextStep(last, resolved, purpose)} ${KEEP[purpose]}`), {
    cause: error,
    data: { status: last.statusCode, attempts, detail: scrub(errorMessage(last)) },
  });
}
