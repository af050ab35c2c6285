import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { ResolvedModel } from "./model-config.js";

/**
 * The AI SDK model for a resolved configuration. OpenAI-compatible covers OpenAI, Azure OpenAI,
 * Ollama, vLLM, LM Studio and OpenRouter; Anthropic has its own protocol. A local server without
 * a key (Ollama, vLLM) is fine: no Authorization header is sent then.
 */
export function createLanguageModel(resolved: ResolvedModel, fetchImpl?: typeof fetch): LanguageModel {
  if (resolved.provider === "anthropic") {
    const anthropic = createAnthropic({
      ...(resolved.apiKey === undefined ? {} : { apiKey: resolved.apiKey }),
      ...(resolved.baseUrl === undefined ? {} : { baseURL: resolved.baseUrl }),
      ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
    });
    return anthropic(resolved.model);
  }
  const openai = createOpenAICompatible({
    name: "openai-compatible",
    baseURL: resolved.baseUrl ?? "https://api.openai.com/v1",
    ...(resolved.apiKey === undefined ? {} : { apiKey: resolved.apiKey }),
    includeUsage: true,
    ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
  });
  return openai.chatModel(resolved.model);
}
