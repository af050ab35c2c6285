import type { CreateMessageResult } from "@modelcontextprotocol/client";
import { generateText } from "ai";
import type { ResolvedModel } from "../llm/model-config.js";
import { createLanguageModel } from "../llm/provider.js";
import type { SamplingParams } from "./request-view.js";
import { stopReasonOf, toModelMessages } from "./to-model-messages.js";

/**
 * Asks the configured model for the reply a server requested, bounded to `maxTokens` (already
 * capped), and returns it as MCP's CreateMessageResult. Cancelled when `signal` aborts (the server
 * withdrew the request, or the person pressed Ctrl-C).
 */
export async function sampleWithModel(resolved: ResolvedModel, params: SamplingParams, maxTokens: number, signal: AbortSignal): Promise<CreateMessageResult> {
  const result = await generateText({
    model: createLanguageModel(resolved),
    ...(params.systemPrompt === undefined || params.systemPrompt === "" ? {} : { system: params.systemPrompt }),
    messages: toModelMessages(params.messages),
    maxOutputTokens: maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences === undefined || params.stopSequences.length === 0 ? {} : { stopSequences: [...params.stopSequences] }),
    abortSignal: signal,
    maxRetries: 1,
  });
  return {
    role: "assistant",
    content: { type: "text", text: result.text },
    model: result.response.modelId || resolved.model,
    stopReason: stopReasonOf(result.finishReason),
  };
}
