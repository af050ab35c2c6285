import { z } from "zod";
import { describeZodIssues } from "../../config/config-file.js";
import { McpvmError } from "../../util/errors.js";
import { didYouMean } from "../../util/suggest.js";
import { DEFAULT_CONTEXT_WINDOW } from "./context-window.js";

export class LlmConfigError extends McpvmError<"LLM_NOT_CONFIGURED" | "LLM_CONFIG_INVALID" | "LLM_KEY_MISSING"> {}

export const PROVIDERS = ["openai-compatible", "anthropic"] as const;
export type ProviderKind = (typeof PROVIDERS)[number];

/** config.json `model`: which model to talk to. Keys are never stored here, only the env var's name. */
export const modelConfigSchema = z
  .object({
    provider: z.enum(PROVIDERS).optional(),
    model: z.string().min(1).optional(),
    baseUrl: z.string().url().optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    maxSteps: z.number().int().min(1).max(100).optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** The most tokens the model may write when it answers an MCP server's sampling request. */
    samplingMaxTokens: z.number().int().min(1).max(100_000).optional(),
    /** The model's context window in tokens: the REPL keeps each request within it (context-window.ts). */
    contextWindow: z.number().int().min(1_000).max(10_000_000).optional(),
  })
  .strict();
export type ModelConfig = z.infer<typeof modelConfigSchema>;

export interface ResolvedModel {
  readonly provider: ProviderKind;
  readonly model: string;
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  /** Where the key came from (an env var name), for /model and doctor; never the key itself. */
  readonly apiKeySource: string | undefined;
  readonly maxSteps: number;
  readonly temperature: number | undefined;
  /** The bound on a sampling reply (the server's maxTokens is lowered to it). */
  readonly samplingMaxTokens: number;
  /** The model's context window in tokens (model.contextWindow, default DEFAULT_CONTEXT_WINDOW). */
  readonly contextWindow: number;
}

/** A sampling reply's default bound: a paragraph or a summary, not a report the person did not expect to pay for. */
export const DEFAULT_SAMPLING_MAX_TOKENS = 1024;

export const HOW_TO_CONFIGURE =
  "Set MCPVM_MODEL (e.g. `openai-compatible:gpt-4o-mini` with OPENAI_API_KEY, `anthropic:claude-sonnet-4-5` with ANTHROPIC_API_KEY, " +
  "or `openai-compatible:llama3.1` with MCPVM_BASE_URL=http://127.0.0.1:11434/v1 for Ollama), or a `model` section in config.json. See docs/USAGE.md.";

/**
 * Env wins over config.json, so a one-off `MCPVM_MODEL=… mcpvm` works without editing files.
 * MCPVM_MODEL is `provider:model` or a bare model name without a colon (then the provider comes from
 * config, else openai-compatible). `openai:` is accepted as an alias of openai-compatible; any other
 * text before the first colon is an unknown provider (LLM_CONFIG_INVALID).
 */
export function resolveModel(config: ModelConfig | undefined, env: Readonly<Record<string, string | undefined>>): ResolvedModel {
  const fromEnv = env.MCPVM_MODEL?.trim();
  let provider: ProviderKind | undefined = config?.provider;
  let model = config?.model;
  if (fromEnv) {
    const colon = fromEnv.indexOf(":");
    const prefix = colon > 0 ? fromEnv.slice(0, colon) : "";
    const known = prefix === "openai" ? "openai-compatible" : (PROVIDERS as readonly string[]).includes(prefix) ? (prefix as ProviderKind) : undefined;
    if (known !== undefined) {
      provider = known;
      model = fromEnv.slice(colon + 1).trim();
      if (model === "") throw new LlmConfigError("LLM_CONFIG_INVALID", `MCPVM_MODEL="${fromEnv}" names no model: write the model after the provider, e.g. ${prefix}:${known === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o-mini"}.`, { data: { provider: prefix } });
    } else if (prefix !== "") {
      // Once taken silently as an OpenAI model name; a typo in the provider then failed far away.
      const hint = didYouMean(prefix, [...PROVIDERS, "openai"]);
      throw new LlmConfigError(
        "LLM_CONFIG_INVALID",
        `MCPVM_MODEL="${fromEnv}": unknown provider "${prefix}"${hint}${hint.endsWith("?") ? "" : "."} Providers: ${PROVIDERS.join(", ")} (openai is an alias of openai-compatible). ` +
          `If "${fromEnv}" is the model's own name (an Ollama tag such as llama3.1:8b), write openai-compatible:${fromEnv}.`,
        { data: { provider: prefix } },
      );
    } else {
      model = fromEnv;
    }
  }
  if (model === undefined || model === "") throw new LlmConfigError("LLM_NOT_CONFIGURED", `No LLM is configured. ${HOW_TO_CONFIGURE}`);
  provider ??= "openai-compatible";
  const baseUrl = env.MCPVM_BASE_URL ?? config?.baseUrl ?? (provider === "openai-compatible" ? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1" : env.ANTHROPIC_BASE_URL);
  const keyNames = [config?.apiKeyEnv, "MCPVM_API_KEY", provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"].filter((k): k is string => k !== undefined);
  const apiKeySource = keyNames.find((k) => (env[k] ?? "") !== "");
  const apiKey = apiKeySource === undefined ? undefined : env[apiKeySource];
  if (apiKey === undefined && provider === "anthropic") {
    throw new LlmConfigError("LLM_KEY_MISSING", `The anthropic provider needs an API key: set ${keyNames.join(" or ")}.`);
  }
  // OpenAI itself always wants a key (a local OpenAI-compatible server does not): without one the
  // first message failed far from here, with a 401 or a network error.
  if (apiKey === undefined && provider === "openai-compatible" && baseUrl !== undefined && /^https:\/\/api\.openai\.com(?:[/:]|$)/.test(baseUrl)) {
    throw new LlmConfigError(
      "LLM_KEY_MISSING",
      `The openai-compatible provider at ${baseUrl} needs an API key: set ${keyNames.join(" or ")} (a local server such as Ollama needs none: point MCPVM_BASE_URL at it).`,
    );
  }
  return {
    provider,
    model,
    baseUrl, apiKey, apiKeySource, maxSteps: config?.maxSteps ?? 12, temperature: config?.temperature, samplingMaxTokens: config?.samplingMaxTokens ?? DEFAULT_SAMPLING_MAX_TOKENS,
    contextWindow: config?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
  };
}

/**
 * The model config.json's `model` section and the environment name, as every face resolves it (the
 * REPL, the second opinion, sampling in `run`). Throws LlmConfigError when there is none or the
 * section is invalid; `spec` is the REPL's /model choice, which wins over MCPVM_MODEL.
 */
export function configuredModel(section: unknown, configFile: string, env: Readonly<Record<string, string | undefined>>, spec?: string): ResolvedModel {
  const parsed = modelConfigSchema.safeParse(section ?? {});
  if (!parsed.success) throw new LlmConfigError("LLM_CONFIG_INVALID", describeZodIssues(configFile, parsed.error.issues.map((i) => ({ ...i, path: ["model", ...i.path] }))));
  return resolveModel(parsed.data, spec === undefined ? env : { ...env, MCPVM_MODEL: spec });
}
