import { renderEvidence } from "../evidence.js";
import type { Hit } from "../rules.js";
import { MODEL_BIAS, MODEL_THRESHOLD, MODEL_WEIGHTS } from "./model-weights.js";
import { signalsOf, type IntentRole, type IntentSignal, type ScreenedUnit } from "./score.js";

/**
 * The fitted scoring model: a logistic regression over which intent signals a definition carries
 * and where (prose the model reads, a parameter's description, a value such as a default or an enum
 * entry). Its weights are fitted on set v1, set v2 and the public corpus by
 * tests/mcp/audit/scripts/fit-intent-model.ts (deterministic; the weights are checked in as
 * model-weights.ts). It adds a finding only where the hand-weighted score (score.ts) stays below
 * warn: signal mixes that the fitted weights say are attacks, such as steering with a directive in a
 * parameter, which no single hand weight reaches.
 */
export const SIGNALS: readonly IntentSignal[] = [
  "context-request",
  "credential-request",
  "credential-harvest",
  "secrecy",
  "steering",
  "shadowing",
  "cross-tool",
  "redirect",
  "destination",
  "decode-hint",
  "directive",
];
export const ROLES: readonly IntentRole[] = ["prose", "parameter", "value"];

/** Feature names, in vector order: one per signal and role, then how many distinct signals there are (capped). */
export const FEATURES: readonly string[] = [...SIGNALS.flatMap((s) => ROLES.map((r) => `${s}@${r}`)), "distinct-signals"];

export interface FeatureVector {
  readonly values: number[];
  /** Evidence per feature that is set, for the finding. */
  readonly evidence: Map<number, string>;
}

/** The feature vector of a set of screened strings (a tool's fields, or a server's instructions). */
export function featuresOf(units: readonly ScreenedUnit[], aboutContext = false): FeatureVector {
  const values = new Array<number>(FEATURES.length).fill(0);
  const evidence = new Map<number, string>();
  const distinct = new Set<IntentSignal>();
  for (const unit of units) {
    for (const hit of signalsOf(unit, aboutContext)) {
      // Signals newer than the fitted weights (governance) are scored by the rules only.
      if (!SIGNALS.includes(hit.signal)) continue;
      const index = SIGNALS.indexOf(hit.signal) * ROLES.length + ROLES.indexOf(unit.role);
      values[index] = 1;
      if (!evidence.has(index)) evidence.set(index, hit.evidence);
      distinct.add(hit.signal);
    }
  }
  values[FEATURES.length - 1] = Math.min(distinct.size, 4) / 4;
  return { values, evidence };
}

export function probabilityOf(values: readonly number[], weights: readonly number[] = MODEL_WEIGHTS, bias: number = MODEL_BIAS): number {
  let z = bias;
  for (let i = 0; i < values.length; i++) z += (weights[i] ?? 0) * (values[i] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/**
 * Destinations and directives describe how text is written, not what it wants: a URL in a
 * description, or "always", is common in real tools. The model needs at least one signal of intent
 * besides them, so it cannot hold a tool for a link alone (the training material has too few such
 * benign tools to teach it that).
 */
const CONTEXT_ONLY: ReadonlySet<IntentSignal> = new Set(["destination", "directive"]);

function hasIntentSignal(vector: FeatureVector): boolean {
  return [...vector.evidence.keys()].some((i) => !CONTEXT_ONLY.has(SIGNALS[Math.floor(i / ROLES.length)] ?? "directive"));
}

/** An `intent-model` hit (warn) when the fitted model says attack; the evidence names the features that pushed it there. */
export function modelHit(vector: FeatureVector): Hit | undefined {
  const p = probabilityOf(vector.values);
  if (p < MODEL_THRESHOLD || !hasIntentSignal(vector)) return undefined;
  const parts = [...vector.evidence.entries()]
    .filter(([i]) => (MODEL_WEIGHTS[i] ?? 0) > 0)
    .sort(([a], [b]) => (MODEL_WEIGHTS[b] ?? 0) - (MODEL_WEIGHTS[a] ?? 0))
    .map(([i, e]) => `${FEATURES[i] ?? "?"} «${e.length > 40 ? `${e.slice(0, 39)}…` : e}»`);
  return { rule: "intent-model", severity: "warn", evidence: renderEvidence(`p ${p.toFixed(2)}: ${parts.join(" + ")}`) };
}
