/**
 * Fitting the semantic stage's sentence classifier (src/mcp/audit/semantic/classify.ts): a logistic regression over
 * 512-dim sentence embeddings, trained as multiple-instance learning because an attack's label belongs to the whole
 * definition, not to one sentence (most of an attack's sentences are ordinary tool prose):
 *   1. every sentence of a benign tool is a negative; every sentence of an attack is a positive; fit;
 *   2. twice: keep only each attack's best-scoring sentence as its positive, fit again.
 * A definition's score is its best sentence's. The threshold lets through all but 0.5 % of the training benign tools
 * the rules pass (measured choice, see tests/fixtures/audit-intent/README.md "wave 10"). Plain batch gradient descent
 * from zero weights, class-balanced, fixed steps: the same input always gives the same weights.
 */
import type { Bag } from "./semantic-material.js";

export const STEPS = 800;
const RATE = 2;
const L2 = 1e-3;
const ROUNDS = 2;
export const BENIGN_QUANTILE = 0.005;

export interface SemanticModel {
  readonly weights: Float64Array;
  readonly bias: number;
}
export type Vectors = (text: string) => Float32Array;

const dot = (w: Float64Array, x: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += (w[i] ?? 0) * (x[i] ?? 0);
  return s;
};
export const sentenceScore = (m: SemanticModel, x: Float32Array): number => 1 / (1 + Math.exp(-(dot(m.weights, x) + m.bias)));
export const bagScore = (m: SemanticModel, bag: Bag, vec: Vectors): number => Math.max(0, ...bag.sentences.map((s) => sentenceScore(m, vec(s.text))));

function train(pos: readonly Float32Array[], neg: readonly Float32Array[], dims: number): SemanticModel {
  const w = new Float64Array(dims);
  let b = 0;
  const g = new Float64Array(dims);
  for (let step = 0; step < STEPS; step++) {
    g.fill(0);
    let gb = 0;
    for (const [xs, y] of [[pos, 1], [neg, 0]] as const) {
      const cw = 0.5 / xs.length;
      for (const x of xs) {
        const e = (1 / (1 + Math.exp(-(dot(w, x) + b))) - y) * cw;
        for (let i = 0; i < dims; i++) g[i] = (g[i] ?? 0) + e * (x[i] ?? 0);
        gb += e;
      }
    }
    for (let i = 0; i < dims; i++) w[i] = (w[i] ?? 0) - RATE * ((g[i] ?? 0) + L2 * (w[i] ?? 0));
    b -= RATE * gb;
  }
  return { weights: w, bias: b };
}

export function fitSemantic(bags: readonly Bag[], vec: Vectors): { model: SemanticModel; threshold: number } {
  const dims = bags.flatMap((b) => b.sentences).map((s) => vec(s.text).length)[0] ?? 512;
  const neg = [...new Set(bags.filter((b) => b.y === 0).flatMap((b) => b.sentences.map((s) => s.text)))].map(vec);
  const attacks = bags.filter((b) => b.y === 1 && b.sentences.length > 0);
  let model = train(attacks.flatMap((b) => b.sentences.map((s) => vec(s.text))), neg, dims);
  for (let r = 0; r < ROUNDS; r++) {
    const current = model;
    const best = attacks.map((b) => b.sentences.map((s) => vec(s.text)).reduce((x, y) => (sentenceScore(current, y) > sentenceScore(current, x) ? y : x)));
    model = train(best, neg, dims);
  }
  return { model, threshold: thresholdFor(bags, model, vec) };
}

/** All but BENIGN_QUANTILE of the benign training tools the rules let through stay below it. */
export function thresholdFor(bags: readonly Bag[], model: SemanticModel, vec: Vectors): number {
  const scores = bags.filter((b) => b.y === 0 && !b.held).map((b) => bagScore(model, b, vec)).sort((a, b) => b - a);
  return Number(Math.min(0.999, (scores[Math.floor(BENIGN_QUANTILE * scores.length)] ?? 0) + 1e-4).toFixed(4));
}
