import { randomBytes } from "node:crypto";
import { generateText, type LanguageModel } from "ai";
import { buildSecondOpinionPrompt, parseSecondOpinionVerdict, secondOpinionFinding, type AuditedTool, type Finding } from "../audit/index.js";

/** Asks a second reviewer about one tool definition; returns the finding it adds, if any. Never throws. */
export type SecondOpinionReviewer = (tool: AuditedTool, signal?: AbortSignal, ownToolNames?: ReadonlySet<string>) => Promise<Finding | undefined>;

export interface SecondOpinionOptions {
  readonly timeoutMs?: number;
  /** Told when a verdict could not be used (malformed, forged nonce, model unreachable). */
  readonly onUnusable?: (tool: string, reason: string) => void;
}

/**
 * The optional LLM second opinion: the untrusted definition goes to the model inside delimiters
 * carrying a fresh random nonce, and only a strictly parsed verdict echoing that nonce counts. It can
 * add a finding, never remove one: the rule-based audit always runs and decides on its own.
 */
export function createSecondOpinionReviewer(model: LanguageModel, options: SecondOpinionOptions = {}): SecondOpinionReviewer {
  return async (tool, signal, ownToolNames) => {
    const nonce = randomBytes(16).toString("hex");
    try {
      const prompt = buildSecondOpinionPrompt(tool, nonce);
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000);
      const { text } = await generateText({
        model,
        system: prompt.system,
        prompt: prompt.user,
        temperature: 0,
        abortSignal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
      const verdict = parseSecondOpinionVerdict(text, nonce);
      const finding = secondOpinionFinding(verdict, tool, ownToolNames);
      if (finding === undefined && verdict.verdict !== "safe") options.onUnusable?.(tool.name, "the verdict quoted nothing that is in the definition; it is ignored");
      return finding;
    } catch (error) {
      options.onUnusable?.(tool.name, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
}
