import type { Tiktoken } from "js-tiktoken/lite";

/** The encoding /tokens and the documented figures count with: OpenAI's current one (GPT-4o and later). */
export const TOKEN_ENCODING = "o200k_base";

export interface TokenCounter {
  readonly encoding: typeof TOKEN_ENCODING;
  count(text: string): number;
}

let loading: Promise<TokenCounter> | undefined;

/**
 * The tokenizer, loaded on first use: its rank table is megabytes of source, so the REPL starts
 * without it and pays once, when /tokens is first asked. Other models split text differently, so a
 * count is exact for OpenAI's models and an estimate (usually within ~10–20%) for others.
 */
export function loadTokenizer(): Promise<TokenCounter> {
  loading ??= (async () => {
    const [{ Tiktoken: TiktokenClass }, ranks] = await Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]);
    const encoder: Tiktoken = new TiktokenClass(ranks.default);
    // Special-token text ("<|endoftext|>") in a tool description is plain text here, never a reason to throw.
    return { encoding: TOKEN_ENCODING, count: (text: string) => encoder.encode(text, [], []).length };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
