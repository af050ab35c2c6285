import { renderEvidence } from "../evidence.js";
import type { Hit } from "../rules.js";
import { contentWordCount, hash32, itemVectors, MAX_UNITS, MIN_CONTENT_WORDS, readsUnit, unitFeatures, type FeaturizeOptions, type SparseVector, type TextUnit } from "./text-features.js";
import { TEXT_MODEL_BIAS, TEXT_MODEL_FEATURES, TEXT_MODEL_SCALE, TEXT_MODEL_THRESHOLD, TEXT_MODEL_WEIGHTS } from "./text-model-weights.js";

/** What the shipped model reads: written into the weights file by the fit, so weights and featurizer cannot drift apart. */
export const TEXT_MODEL_OPTIONS: FeaturizeOptions = TEXT_MODEL_FEATURES;

/**
 * The text model: a logistic regression over hashed words and word pairs of a tool's English text (description,
 * parameter descriptions, values; function words left out), each tagged with where it sits. Fitted on every spent set
 * by tests/mcp/audit/scripts/fit-text-model.ts, its design and threshold chosen by leave-one-set-out over sets v2–v9
 * (tests/fixtures/audit-intent/README.md, wave 15). Like `intent-model`, it adds a warn only where the rules stayed
 * below warn: it reads wording the hand-written rules have no pattern for.
 */

/**
 * Weights are shipped sparse: per non-zero bucket, the gap from the previous one and the weight (an integer multiple of
 * TEXT_MODEL_SCALE, zigzag-signed) as base-128 varints, the bytes in base64.
 */
export function encodeWeights(weights: ArrayLike<number>, scale: number): string {
  const bytes: number[] = [];
  const varint = (n: number): void => {
    while (n >= 0x80) {
      bytes.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    bytes.push(n);
  };
  let last = 0;
  for (let b = 0; b < weights.length; b++) {
    const q = Math.round((weights[b] ?? 0) / scale);
    if (q === 0) continue;
    varint(b - last);
    varint(q < 0 ? -2 * q - 1 : 2 * q);
    last = b;
  }
  return Buffer.from(bytes).toString("base64");
}

export function decodeWeights(encoded: string, scale: number, buckets: number): Float32Array {
  const out = new Float32Array(buckets);
  const bytes = Buffer.from(encoded, "base64");
  let at = 0;
  const varint = (): number => {
    let n = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++] ?? 0;
      n += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while ((byte & 0x80) !== 0 && shift < 35);
    return n;
  };
  let bucket = 0;
  while (at < bytes.length) {
    bucket += varint();
    const z = varint();
    if (bucket < buckets) out[bucket] = (z % 2 === 1 ? -(z + 1) / 2 : z / 2) * scale;
  }
  return out;
}

let shipped: Float32Array | undefined;
/** Decoded on first use (~1 ms), not at import. */
const weightsOf = (): Float32Array => (shipped ??= decodeWeights(TEXT_MODEL_WEIGHTS, TEXT_MODEL_SCALE, TEXT_MODEL_OPTIONS.buckets));

export function textLogit(vector: SparseVector, weights: ArrayLike<number>, bias: number): number {
  let z = bias;
  for (let i = 0; i < vector.index.length; i++) z += (weights[vector.index[i] ?? 0] ?? 0) * (vector.value[i] ?? 0);
  return z;
}

/** The probability the shipped model gives a tool's units read as one (undefined when no unit is English). */
export function textProbability(units: readonly TextUnit[]): number | undefined {
  const [vector] = itemVectors(units, TEXT_MODEL_OPTIONS);
  if (vector === undefined) return undefined;
  return 1 / (1 + Math.exp(-textLogit(vector, weightsOf(), TEXT_MODEL_BIAS)));
}

/** Which unit, and which of its words, pushed the score up most: the finding's evidence. */
export function strongestEvidence(units: readonly TextUnit[], top = 3): { unit: TextUnit; grams: string[] } | undefined {
  const weights = weightsOf();
  const mask = TEXT_MODEL_OPTIONS.buckets - 1;
  let best: { unit: TextUnit; sum: number; grams: Map<string, number> } | undefined;
  for (const unit of units.slice(0, MAX_UNITS)) {
    if (!readsUnit(unit.text, TEXT_MODEL_OPTIONS)) continue;
    const grams = new Map<string, number>();
    for (const f of new Set(unitFeatures(unit, TEXT_MODEL_OPTIONS))) {
      const h = hash32(f);
      const w = (weights[h & mask] ?? 0) * ((h & 0x80000000) !== 0 ? -1 : 1);
      const gram = f.slice(f.indexOf(":", 2) + 1);
      if (w > 0) grams.set(gram, Math.max(grams.get(gram) ?? 0, w));
    }
    const sum = [...grams.values()].reduce((a, b) => a + b, 0);
    if (best === undefined || sum > best.sum) best = { unit, sum, grams };
  }
  if (best === undefined) return undefined;
  const grams = [...best.grams.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top).map(([g]) => g);
  return { unit: best.unit, grams };
}

/** An `intent-text-model` hit (warn) when the text model says attack; the evidence names the unit and its strongest words. */
export function textModelHit(units: readonly TextUnit[]): Hit | undefined {
  if (contentWordCount(units, TEXT_MODEL_OPTIONS) < MIN_CONTENT_WORDS) return undefined;
  const p = textProbability(units);
  if (p === undefined || p < TEXT_MODEL_THRESHOLD) return undefined;
  const strongest = strongestEvidence(units);
  const where = strongest === undefined ? "" : ` ${strongest.unit.role} «${renderEvidence(strongest.unit.text, 60)}» (${strongest.grams.map((g) => `"${g}"`).join(", ")})`;
  return { rule: "intent-text-model", severity: "warn", evidence: renderEvidence(`p ${p.toFixed(2)}:${where}`) };
}
