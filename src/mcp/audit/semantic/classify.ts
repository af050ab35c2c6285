import { renderEvidence } from "../evidence.js";
import type { Finding } from "../types.js";
import type { Sentence } from "./sentences.js";
import { SEMANTIC_BIAS, SEMANTIC_THRESHOLD, SEMANTIC_WEIGHTS } from "./weights.js";

/**
 * The fitted sentence classifier: a logistic regression over the sentence encoder's 512-dim embedding, fitted on the
 * spent sets by tests/mcp/audit/scripts/fit-semantic-model.ts (weights.ts is generated). A definition scores as its
 * most attack-like sentence; at or above the threshold it is held (warn), with that sentence as evidence. Never
 * block: the model is a reader of paraphrase, not proof, and a person accepts a warn with one word.
 */
export function sentenceProbability(vector: ArrayLike<number>, weights: readonly number[] = SEMANTIC_WEIGHTS, bias: number = SEMANTIC_BIAS): number {
  let z = bias;
  for (let i = 0; i < weights.length; i++) z += (weights[i] ?? 0) * (vector[i] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

export interface ScoredSentence {
  readonly sentence: Sentence;
  readonly probability: number;
}

/** The most attack-like sentence, or undefined when there is none. */
export function bestSentence(sentences: readonly Sentence[], vectors: readonly ArrayLike<number>[]): ScoredSentence | undefined {
  let best: ScoredSentence | undefined;
  sentences.forEach((sentence, i) => {
    const vector = vectors[i];
    if (vector === undefined) return;
    const probability = sentenceProbability(vector);
    if (best === undefined || probability > best.probability) best = { sentence, probability };
  });
  return best;
}

/** A `semantic` finding (warn) for a tool, or for the server's instructions (no tool), when its best sentence reaches the threshold. */
export function semanticFinding(tool: string | undefined, best: ScoredSentence | undefined, threshold: number = SEMANTIC_THRESHOLD): Finding | undefined {
  if (best === undefined || best.probability < threshold) return undefined;
  return {
    rule: "semantic",
    family: "intent",
    severity: "warn",
    location: { ...(tool === undefined ? {} : { tool }), field: best.sentence.field, jsonPath: best.sentence.jsonPath },
    evidence: renderEvidence(`reads as an instruction to the model (p ${best.probability.toFixed(2)}): «${best.sentence.text}»`, 240),
  };
}
