/**
 * How the embedding study (embed-vectors.ts, embed-loso.ts) cuts a tool's text into pieces a sentence encoder reads
 * well: sentences (and lines), merged up to ~200 characters, none longer than 400 (the encoder averages over its
 * input, so one injected sentence in a long description would be diluted if the whole text were one input).
 */
export function chunksOf(text: string): string[] {
  const pieces = text
    .split(/\n+|(?<=[.!?。！？])\s+|(?<=[。！？])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const merged: string[] = [];
  let current = "";
  for (const piece of pieces) {
    if (current.length > 0 && current.length + piece.length + 1 > 200) {
      merged.push(current);
      current = piece;
    } else current = current.length > 0 ? `${current} ${piece}` : piece;
  }
  if (current.length > 0) merged.push(current);
  return merged.flatMap((c) => {
    const out: string[] = [];
    for (let i = 0; i < c.length; i += 400) out.push(c.slice(i, i + 400));
    return out;
  });
}

/** One example of the study: a set's attack case (all its tools and instructions) or one benign tool. */
export interface EmbedExample {
  readonly set: string;
  readonly y: 0 | 1;
  readonly family: string;
  /** Whether the whole audit (rules and both shipped models, no second opinion) holds it. */
  readonly flagged: boolean;
  /** Each tool's text (name, then its strings) and the server's instructions, one string each. */
  readonly items: string[];
}
