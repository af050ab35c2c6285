/**
 * Fitting the text model: logistic regression over hashed text features, an example scored by its best item (a tool,
 * or a server's instructions). Training pools an example's items with log-sum-exp (a smooth max: at zero weights
 * every item shares the gradient, later the one that reads most like an attack takes it); class-balanced loss, L2
 * penalty, full-batch Adam for a fixed number of steps from zero: the same input always gives the same weights.
 */
import type { SparseVector } from "../../../../src/mcp/audit/intent/text-features.js";

export interface Row {
  readonly y: 0 | 1;
  readonly items: readonly SparseVector[];
  /** How much the row counts within its class (1 unless FitOptions.voiceWeight says otherwise). */
  readonly weight?: number;
}

export interface FitOptions {
  readonly steps: number;
  readonly rate: number;
  readonly l2: number;
  /** The weight of a benign-voice row (honest text written in the attacks' voice) within the benign class; 1 if unset. */
  readonly voiceWeight?: number;
}

export interface LinearModel {
  readonly weights: Float64Array;
  bias: number;
}

export function logit(v: SparseVector, model: LinearModel): number {
  let z = model.bias;
  for (let i = 0; i < v.index.length; i++) z += (model.weights[v.index[i] ?? 0] ?? 0) * (v.value[i] ?? 0);
  return z;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** An example's probability: its best item's (0 when no item was read). */
export function scoreOf(items: readonly SparseVector[], model: LinearModel): number {
  let best = -Infinity;
  for (const v of items) best = Math.max(best, logit(v, model));
  return best === -Infinity ? 0 : sigmoid(best);
}

export function fitText(rows: readonly Row[], buckets: number, options: FitOptions): LinearModel {
  const model: LinearModel = { weights: new Float64Array(buckets), bias: 0 };
  const used = rows.filter((r) => r.items.length > 0);
  const positives = used.filter((r) => r.y === 1).reduce((n, r) => n + (r.weight ?? 1), 0);
  const negatives = used.filter((r) => r.y === 0).reduce((n, r) => n + (r.weight ?? 1), 0);
  const m = new Float64Array(buckets);
  const v = new Float64Array(buckets);
  let mb = 0;
  let vb = 0;
  const beta1 = 0.9;
  const beta2 = 0.999;
  const grad = new Float64Array(buckets);
  const touched = new Uint8Array(buckets);
  for (let step = 1; step <= options.steps; step++) {
    grad.fill(0);
    let gb = 0;
    for (const r of used) {
      const zs = r.items.map((it) => logit(it, model));
      const top = Math.max(...zs);
      const ws = zs.map((z) => Math.exp(z - top));
      const sum = ws.reduce((a, b) => a + b, 0);
      const pooled = top + Math.log(sum);
      const err = (sigmoid(pooled) - r.y) * (r.weight ?? 1) * (r.y === 1 ? 0.5 / positives : 0.5 / negatives);
      r.items.forEach((it, k) => {
        const share = err * ((ws[k] ?? 0) / sum);
        for (let i = 0; i < it.index.length; i++) {
          const b = it.index[i] ?? 0;
          grad[b] = (grad[b] ?? 0) + share * (it.value[i] ?? 0);
          touched[b] = 1;
        }
      });
      gb += err;
    }
    const c1 = 1 - beta1 ** step;
    const c2 = 1 - beta2 ** step;
    for (let b = 0; b < buckets; b++) {
      if (touched[b] === 0) continue;
      const g = (grad[b] ?? 0) + options.l2 * (model.weights[b] ?? 0);
      m[b] = beta1 * (m[b] ?? 0) + (1 - beta1) * g;
      v[b] = beta2 * (v[b] ?? 0) + (1 - beta2) * g * g;
      model.weights[b] = (model.weights[b] ?? 0) - (options.rate * ((m[b] ?? 0) / c1)) / (Math.sqrt((v[b] ?? 0) / c2) + 1e-8);
    }
    mb = beta1 * mb + (1 - beta1) * gb;
    vb = beta2 * vb + (1 - beta2) * gb * gb;
    model.bias -= (options.rate * (mb / c1)) / (Math.sqrt(vb / c2) + 1e-8);
  }
  return model;
}
