import type { ModelMessage } from "ai";
import type { McpvmHost } from "../../host/index.js";
import { configuredModel, type ResolvedModel } from "../llm/model-config.js";
import { fitToWindow, withoutResults } from "../llm/context-window.js";
import { modelRequestError } from "../llm/model-error.js";
import { createLanguageModel } from "../llm/provider.js";
import { loadTokenizer } from "../llm/tokenizer.js";
import { runTurn, type TurnCallbacks, type TurnResult, type TurnUsage } from "../llm/turn.js";
import { toolDefinitionsAsSent } from "../llm/wire-tools.js";
import { buildSystemMessage } from "../system-message.js";
import { buildAgentTools, type AgentToolContext } from "../tools/index.js";
import { moduleSummaries } from "../tools/module-summaries.js";

/**
 * One conversation with the model: its history, token counts, and which model it talks to. The
 * model is resolved at every turn so /model and config edits apply without restarting.
 */
export class ChatSession {
  private messages: ModelMessage[] = [];
  /** Tool results left out of requests to fit the model's context window (their call ids). */
  private readonly trimmed = new Set<string>();
  private readonly agentTools;
  modelSpec: string | undefined;
  last: TurnUsage | undefined;
  readonly totals = { inputTokens: 0, outputTokens: 0, totalTokens: 0, turns: 0 };

  constructor(
    private readonly host: McpvmHost,
    private readonly env: Readonly<Record<string, string | undefined>>,
    tools: AgentToolContext,
  ) {
    this.agentTools = buildAgentTools(tools);
  }

  get turns(): number {
    return this.messages.filter((m) => m.role === "user").length;
  }

  /** Throws LlmConfigError (with how to configure one) when no model is set up. */
  model(): ResolvedModel {
    return configuredModel(this.host.config.model, this.host.paths.configFile, this.env, this.modelSpec);
  }

  async systemMessage(): Promise<string> {
    await this.host.hostModules();
    const servers = this.host.mcpServers();
    return buildSystemMessage({
      modules: await moduleSummaries(this.host),
      mcpEnabled: servers !== undefined,
      ...(servers === undefined ? {} : { disabledServers: servers.serverNames().filter((s) => !servers.enabledServers().includes(s)) }),
    });
  }

  async send(userMessage: string, signal: AbortSignal, callbacks: TurnCallbacks): Promise<TurnResult> {
    const resolved = this.model();
    // The model's own key is a secret too: masked in everything the REPL shows, from the first message.
    if (resolved.apiKey !== undefined) this.host.redactor.add([resolved.apiKey]);
    const system = await this.systemMessage();
    const result = await runTurn({
      model: createLanguageModel(resolved),
      system,
      history: this.messages,
      userMessage,
      tools: this.agentTools.tools,
      activeTools: () => this.agentTools.activeToolNames(),
      maxSteps: resolved.maxSteps,
      ...(resolved.temperature === undefined ? {} : { temperature: resolved.temperature }),
      signal,
      fitMessages: async (messages, active) => {
        const definitions = await toolDefinitionsAsSent(this.agentTools.tools, active ?? (await this.agentTools.activeToolNames()));
        const budget = { model: `${resolved.provider}:${resolved.model}`, window: resolved.contextWindow, fixed: system + JSON.stringify(definitions), count: async () => (await loadTokenizer()).count };
        const fitted = await fitToWindow(messages, budget, this.trimmed);
        if (fitted.newlyTrimmed > 0 && fitted.tokens !== undefined) callbacks.onContextTrim?.(fitted.newlyTrimmed, fitted.tokens, resolved.contextWindow);
        return fitted.messages;
      },
      ...callbacks,
    }).catch((error: unknown) => {
      // A cancel is the person's doing, reported as such by the REPL; an endpoint's failure is named.
      throw signal.aborted ? error : modelRequestError(error, resolved, (text) => this.host.stripHostPaths(this.host.redactor.redact(text)));
    });
    // Results left out to fit the window stay out: the history holds what the model was last sent.
    this.messages = [...this.messages, ...result.messages].map((message) => withoutResults(message, this.trimmed));
    this.last = result.usage;
    this.totals.inputTokens += result.usage.inputTokens;
    this.totals.outputTokens += result.usage.outputTokens;
    this.totals.totalTokens += result.usage.totalTokens;
    this.totals.turns += 1;
    return result;
  }

  /** The conversation as sent to the model (for /save). */
  get history(): readonly ModelMessage[] {
    return this.messages;
  }

  /** `--resume`: carry on from a saved conversation. */
  restore(messages: readonly ModelMessage[]): void {
    this.reset();
    this.messages = [...messages];
  }

  /** /new: forget the conversation (token totals for the session stay). */
  reset(): void {
    this.messages = [];
    this.trimmed.clear();
    this.last = undefined;
  }

  /** What every step sends besides the conversation, in tokens (for /tokens). */
  async stepCost(): Promise<StepCost> {
    const system = await this.systemMessage();
    const definitions = await toolDefinitionsAsSent(this.agentTools.tools, await this.agentTools.activeToolNames());
    const tokenizer = await loadTokenizer();
    return {
      encoding: tokenizer.encoding,
      systemTokens: tokenizer.count(system),
      toolTokens: tokenizer.count(JSON.stringify(definitions)),
      toolCount: definitions.length,
    };
  }
}

export interface StepCost {
  readonly encoding: string;
  readonly systemTokens: number;
  /** The request's `tools` array as JSON (names, descriptions, input schemas). */
  readonly toolTokens: number;
  readonly toolCount: number;
}
