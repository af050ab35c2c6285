import type { ModelMessage } from "ai";
import { McpvmError } from "../../util/errors.js";

/**
 * The model's context window, in tokens, when config.json names none: what today's common models
 * (gpt-4o, gpt-4o-mini, llama3.1) take. A model with a smaller window is set with model.contextWindow.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** What the model reads in place of a tool result left out to fit the window. */
export const TRIMMED_RESULT = "(this tool result was left out to keep the conversation within the model's context window; run the code again if you need it)";

/** The next request would not fit the model's context window even with every older tool result left out. */
export class ContextFullError extends McpvmError<"LLM_CONTEXT_FULL"> {}

export interface WindowBudget {
  /** `provider:model`, for the messages. */
  readonly model: string;
  readonly window: number;
  /** What every request sends besides the messages: the system message and the tool definitions. */
  readonly fixed: string;
  /** Tokens of a text (o200k_base: exact for OpenAI's models, an estimate for others). */
  readonly count: () => Promise<(text: string) => number>;
}

export interface Fitted {
  readonly messages: ModelMessage[];
  /** Tool results left out by this call (not counting those left out before). */
  readonly newlyTrimmed: number;
  /** The request's estimated size, in tokens; undefined when it is clearly small enough to skip counting. */
  readonly tokens: number | undefined;
}

/** A tenth of the window stays free for the model's reply. */
export function inputLimit(window: number): number {
  return window - Math.floor(window / 10);
}

/**
 * The messages of the next request, made to fit the window: tool results are left out oldest first
 * (their ids join `trimmed`, so later requests leave them out too), never those of the newest
 * message, which the model is about to read. Throws ContextFullError when that is not enough.
 */
export async function fitToWindow(messages: readonly ModelMessage[], budget: WindowBudget, trimmed: Set<string>): Promise<Fitted> {
  const limit = inputLimit(budget.window);
  let current = messages.map((message) => withoutResults(message, trimmed));
  // A token is at least a character for all but unusual text: a request with fewer characters than
  // the limit fits, and the tokenizer (seconds to load) is not needed.
  const chars = budget.fixed.length + current.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
  if (chars <= limit) return { messages: current, newlyTrimmed: 0, tokens: undefined };
  const count = await budget.count();
  const sizes = current.map((message) => count(JSON.stringify(message)));
  let total = count(budget.fixed) + sizes.reduce((a, b) => a + b, 0);
  // Committed to `trimmed` only when the request fits: a refused one leaves the conversation as it was.
  const next = new Set(trimmed);
  let newlyTrimmed = 0;
  for (let index = 0; index < current.length - 1 && total > limit; index++) {
    for (const id of resultIds(current[index] as ModelMessage)) {
      if (total <= limit) break;
      next.add(id);
      newlyTrimmed += 1;
      const smaller = withoutResults(current[index] as ModelMessage, next);
      const size = count(JSON.stringify(smaller));
      total += size - (sizes[index] as number);
      sizes[index] = size;
      current = current.map((message, i) => (i === index ? smaller : message));
    }
  }
  if (total > limit) {
    throw new ContextFullError(
      "LLM_CONTEXT_FULL",
      `The next request to ${budget.model} would take about ${total.toLocaleString("en-US")} tokens, more than its context window allows (${budget.window.toLocaleString("en-US")} tokens, a tenth kept for the reply; model.contextWindow in config.json), even with every earlier tool result left out. Nothing was sent. /new starts a new conversation; if the model takes more, raise model.contextWindow.`,
      { data: { tokens: total, window: budget.window } },
    );
  }
  for (const id of next) trimmed.add(id);
  return { messages: current, newlyTrimmed, tokens: total };
}

/** The ids of the tool results in a message that are still there (not yet left out). */
function resultIds(message: ModelMessage): string[] {
  if (message.role !== "tool") return [];
  return message.content.flatMap((part) => (part.type === "tool-result" && !(part.output.type === "text" && part.output.value === TRIMMED_RESULT) ? [part.toolCallId] : []));
}

/** The message with the results in `trimmed` replaced by TRIMMED_RESULT; the same object when none is. */
export function withoutResults(message: ModelMessage, trimmed: ReadonlySet<string>): ModelMessage {
  if (message.role !== "tool" || !message.content.some((part) => part.type === "tool-result" && trimmed.has(part.toolCallId))) return message;
  return {
    ...message,
    content: message.content.map((part) => (part.type === "tool-result" && trimmed.has(part.toolCallId) ? { ...part, output: { type: "text" as const, value: TRIMMED_RESULT } } : part)),
  };
}
