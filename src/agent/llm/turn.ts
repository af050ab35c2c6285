import { stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet } from "ai";

export interface TurnUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

export interface TurnCallbacks {
  onTextDelta?(text: string): void;
  /** `callId` pairs a call with its result or error: a step's calls can all start before any ends. */
  onToolCall?(name: string, input: unknown, callId: string): void;
  onToolResult?(name: string, output: unknown, callId: string): void;
  /**
   * A call that produced no result: the SDK refused its input (schema validation, unknown tool) or
   * the tool threw. The model gets the error text as the call's result; the person should see it too.
   */
  onToolError?(name: string, error: unknown, callId: string): void;
  /** A step started (the model is thinking): spinners start here. */
  onStepStart?(): void;
  /** Older tool results were left out of the request to fit the model's context window (about `tokens` of `window` now). */
  onContextTrim?(count: number, tokens: number, window: number): void;
}

export interface TurnOptions extends TurnCallbacks {
  readonly model: LanguageModel;
  readonly system: string;
  readonly history: readonly ModelMessage[];
  readonly userMessage: string;
  readonly tools: ToolSet;
  readonly maxSteps: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  /** Asked before every step: the names of the tools offered in it (default: all of them). */
  readonly activeTools?: () => Promise<string[]>;
  /** Asked before every step with the messages it would send: what to send instead (kept within the context window), or a throw that ends the turn. */
  readonly fitMessages?: (messages: ModelMessage[], activeTools: readonly string[] | undefined) => Promise<ModelMessage[]>;
}

export interface TurnResult {
  /** The messages this turn added (user message, assistant and tool messages), to append to history. */
  readonly messages: readonly ModelMessage[];
  readonly text: string;
  readonly usage: TurnUsage;
  readonly steps: number;
  /** Why the last step ended: "tool-calls" after the last step means maxSteps stopped the loop. */
  readonly finishReason: string;
}

/**
 * One user turn: stream the model's answer, run the tool calls it makes (the AI SDK's loop), stop
 * after maxSteps. The caller keeps the history; a cancelled or failed turn adds nothing to it.
 */
export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const user: ModelMessage = { role: "user", content: options.userMessage };
  let failure: unknown;
  const { activeTools, fitMessages } = options;
  const result = streamText({
    model: options.model,
    system: options.system,
    messages: [...options.history, user],
    tools: options.tools,
    stopWhen: stepCountIs(options.maxSteps),
    ...(activeTools === undefined && fitMessages === undefined
      ? {}
      : {
          prepareStep: async ({ messages }) => {
            const active = await activeTools?.();
            return { ...(active === undefined ? {} : { activeTools: active }), ...(fitMessages === undefined ? {} : { messages: await fitMessages(messages, active) }) };
          },
        }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
    onError: ({ error }) => {
      failure = error;
    },
  });
  let text = "";
  let steps = 0;
  const refused = new Map<string, unknown>();
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "start-step":
        steps += 1;
        options.onStepStart?.();
        break;
      case "text-delta":
        text += part.text;
        options.onTextDelta?.(part.text);
        break;
      case "tool-call":
        // The tool-error part that follows an invalid call carries only the error's text; the call
        // part has the error itself (with the schema issues), so keep it for onToolError.
        if (part.invalid === true) refused.set(part.toolCallId, part.error);
        options.onToolCall?.(part.toolName, part.input, part.toolCallId);
        break;
      case "tool-result":
        options.onToolResult?.(part.toolName, part.output, part.toolCallId);
        break;
      case "tool-error":
        options.onToolError?.(part.toolName, refused.get(part.toolCallId) ?? part.error, part.toolCallId);
        break;
      case "error":
        failure ??= part.error;
        break;
      default:
        break;
    }
  }
  if (failure !== undefined) throw failure;
  const response = await result.response;
  const usage = await result.totalUsage;
  return {
    messages: [user, ...response.messages],
    text,
    steps,
    finishReason: await result.finishReason,
    usage: { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0, totalTokens: usage.totalTokens ?? 0 },
  };
}
