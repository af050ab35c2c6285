/**
 * The embedding study's classifier: logistic regression on dense vectors, an example as suspicious as its most
 * suspicious instance (a chunk, a tool, or the whole example). Training pools instances with log-sum-exp as the text
 * model does (text-model/train.ts); class-balanced loss, L2 penalty, full-batch Adam from zero for a fixed number of
 * steps, so the same input always gives the same weights.
 */
export interface DenseRow {
  readonly y: 0 | 1;
  readonly instances: readonly Float32Array[];
}

export interface DenseFit {
  readonly steps: number;
  readonly rate: number;
  readonly l2: number;
}

/** Weights, the bias last. */
export type DenseModel = Float64Array;

function logitOf(w: DenseModel, v: Float32Array): number {
  const d = w.length - 1;
  let z = w[d] ?? 0;
  for (let j = 0; j < d; j++) z += (w[j] ?? 0) * (v[j] ?? 0);
  return z;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function scoreDense(row: DenseRow, w: DenseModel): number {
  if (row.instances.length === 0) return 0;
  return sigmoid(Math.max(...row.instances.map((v) => logitOf(w, v))));
}

export function fitDense(rows: readonly DenseRow[], options: DenseFit): DenseModel {
  const used = rows.filter((r) => r.instances.length > 0);
  const d = used[0]?.instances[0]?.length ?? 0;
  const w = new Float64Array(d + 1);
  const m = new Float64Array(d + 1);
  const s = new Float64Array(d + 1);
  const g = new Float64Array(d + 1);
  const positives = used.filter((r) => r.y === 1).length;
  const negatives = used.length - positives;
  for (let step = 1; step <= options.steps; step++) {
    g.fill(0);
    for (const r of used) {
      const zs = r.instances.map((v) => logitOf(w, v));
      const top = Math.max(...zs);
      const ws = zs.map((z) => Math.exp(z - top));
      const sum = ws.reduce((a, b) => a + b, 0);
      const err = (sigmoid(top + Math.log(sum)) - r.y) * (r.y === 1 ? 0.5 / positives : 0.5 / negatives);
      r.instances.forEach((v, k) => {
        const share = (err * (ws[k] ?? 0)) / sum;
        for (let j = 0; j < d; j++) g[j] = (g[j] ?? 0) + share * (v[j] ?? 0);
        g[d] = (g[d] ?? 0) + share;
      });
    }
    for (let j = 0; j <= d; j++) {
      const gj = (g[j] ?? 0) + (j < d ? options.l2 * (w[j] ?? 0) : 0);
      m[j] = 0.9 * (m[j] ?? 0) + 0.1 * gj;
      s[j] = 0.999 * (s[j] ?? 0) + 0.001 * gj * gj;
      w[j] = (w[j] ?? 0) - (options.rate * ((m[j] ?? 0) / (1 - 0.9 ** step))) / (Math.sqrt((s[j] ?? 0) / (1 - 0.999 ** step)) + 1e-8);
    }
  }
  return w;
}

/**
 * The lowest threshold at which benign flagged — by the classifier, or with `withAudit` by the audit or the
 * classifier — stays at or under 2 % of the benign examples given; Infinity when the audit alone is already over.
 */
export function thresholdAt(scored: ReadonlyArray<{ flagged: boolean; y: 0 | 1; p: number }>, withAudit: boolean): number {
  const benign = scored.filter((x) => x.y === 0);
  const base = withAudit ? benign.filter((x) => x.flagged).length : 0;
  const budget = Math.floor(0.02 * benign.length) - base;
  if (budget < 0) return Infinity;
  const free = benign.filter((x) => !(withAudit && x.flagged)).map((x) => x.p).sort((a, b) => b - a);
  return budget < free.length ? (free[budget] ?? 0) + 1e-9 : 0;
}
