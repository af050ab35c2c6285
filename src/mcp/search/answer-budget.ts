/** Most tokens a search_tools answer may take in the model's context (issue 15: ≤ 1,200 in o200k_base). */
export const SEARCH_ANSWER_TOKENS = 1_200;

/**
 * A token count that errs high, without loading a tokenizer (megabytes of ranks) into every
 * process that searches: o200k_base measures 3.8–4.2 characters a token on search answers (JSON,
 * English, TypeScript signatures), so 3 per ASCII character is safe; other scripts count one a character.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3) + other;
}

/**
 * The longest head of `items` (best first) whose JSON fits `maxTokens` beside `envelope` tokens of
 * wrapping; the rest are counted, so the answer can say how many more there were.
 */
export function fitToBudget<T>(items: readonly T[], maxTokens: number, envelope = 40): { kept: T[]; dropped: number } {
  let used = envelope;
  const kept: T[] = [];
  for (const item of items) {
    const cost = estimateTokens(JSON.stringify(item)) + 1;
    if (used + cost > maxTokens) break;
    used += cost;
    kept.push(item);
  }
  return { kept, dropped: items.length - kept.length };
}
