/**
 * Fitting the intent scoring model (src/mcp/audit/intent/model.ts). Training material: sets v1–v5
 * (tuning.json, heldout-v2/-v3/-v4/-v5.json), each tuned on since its held-out measurement, tuning set v5 (attacks only),
 * the public corpus (mcp-guardbench definition cases and the five real listings), plus benign-extra.json to
 * benign-extra-4.json. Never a held-out set that has not been measured (v6 is not read here).
 *
 * An attack case is one example (its tools' and instructions' features, element-wise max), each
 * benign tool another. Plain batch gradient descent on the class-balanced logistic loss with an L2
 * penalty, from zero weights, a fixed number of steps: the same input always gives the same weights.
 * The script that writes the weights is scripts/fit-intent-model.ts; intent-model.test.ts checks them.
 */
import { auditServer, definitionFields, verdictOf } from "../../../src/mcp/audit/audit-tool.js";
import { FEATURES, featuresOf, probabilityOf } from "../../../src/mcp/audit/intent/model.js";
import { isAboutContext, maskOwnTools } from "../../../src/mcp/audit/intent/score.js";
import { toolUnits } from "../../../src/mcp/audit/intent/tool-intent.js";
import { identifierWords } from "../../../src/mcp/audit/normalise.js";
import type { AuditContext, AuditedTool } from "../../../src/mcp/audit/types.js";
import { caseKind, loadCases, loadListings } from "./guardbench-harness.js";
import { loadHalf } from "./intent-harness.js";

const STEPS = 6000;
const RATE = 0.5;
const L2 = 0.002;
/** The threshold is the first of these above every benign training tool that the rules pass: the model adds no hold to any of them. */
export const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];

const toolVector = (tool: AuditedTool, own: readonly AuditedTool[]): number[] =>
  featuresOf(toolUnits(definitionFields(tool).fields, new Set(own.map((t) => t.name))), isAboutContext(identifierWords(tool.name).join(" "))).values;
const othersOf = (servers: ReadonlyArray<{ server: string; tools: readonly AuditedTool[] }>, name: string): AuditContext["otherServers"] =>
  servers.filter((o) => o.server !== name).map((o) => ({ name: o.server, toolNames: o.tools.map((t) => t.name) }));
const maxOf = (vectors: number[][]): number[] => FEATURES.map((_, i) => Math.max(0, ...vectors.map((v) => v[i] ?? 0)));

export interface Example {
  readonly x: number[];
  readonly y: 0 | 1;
  /** A benign tool the rest of the audit already holds: the model adds nothing there, so the threshold ignores it. */
  readonly held?: boolean;
}

/** Benign tools of one listing, with whether the audit without the model holds each. */
function benignRows(tools: readonly AuditedTool[], serverName: string, others: AuditContext["otherServers"] = []): Example[] {
  const report = auditServer({ serverName, tools }, { otherServers: others });
  return tools.map((t) => {
    const findings = report.findings.filter((f) => f.location.tool === t.name && f.rule !== "intent-model" && f.rule !== "intent-text-model");
    return { x: toolVector(t, tools), y: 0 as const, held: verdictOf(findings) === "warn" || verdictOf(findings) === "block" };
  });
}

/** The sets the model is fitted on, each by name; v4 and benign-extra-3 are tuning material since wave 8, v5 and benign-extra-4 since wave 9. */
export const TRAINING_SETS = ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "heldout-v5", "tuning-v5", "benign-extra", "benign-extra-2", "benign-extra-3", "benign-extra-4", "corpus"] as const;
export type TrainingSetName = (typeof TRAINING_SETS)[number];

/** An attack example's `held`: whether the audit without the model already holds it (for leave-one-set-out figures). */
function attackRow(tools: readonly AuditedTool[], instructions: string | undefined, serverName: string, others: AuditContext["otherServers"]): Example {
  const vectors = tools.map((t) => toolVector(t, tools));
  if (instructions !== undefined) vectors.push(featuresOf([{ text: maskOwnTools(instructions, new Set(tools.map((t) => t.name))), role: "prose" }]).values);
  const report = auditServer({ serverName, instructions, tools }, { otherServers: others });
  const verdict = verdictOf(report.findings.filter((f) => f.rule !== "intent-model" && f.rule !== "intent-text-model"));
  return { x: maxOf(vectors), y: 1, held: verdict === "warn" || verdict === "block" };
}

/** The examples of one set: each attack case one example, each benign tool another. */
export function setRows(name: TrainingSetName): Example[] {
  const rows: Example[] = [];
  if (name === "corpus") {
    for (const c of loadCases()) {
      if (caseKind(c.message) !== "definition") continue;
      const tools = ((c.message.result as { tools?: AuditedTool[] } | undefined)?.tools ?? []) as AuditedTool[];
      if (c.bucket === "benign") rows.push(...benignRows(tools, c.id));
      else rows.push(attackRow(tools, undefined, c.id, []));
    }
    const listings = Object.entries(loadListings()).map(([server, tools]) => ({ server, tools }));
    for (const { server, tools } of listings) rows.push(...benignRows(tools, server, othersOf(listings, server)));
    return rows;
  }
  const half = loadHalf(name);
  for (const c of half.attacks) rows.push(attackRow(c.server.tools, c.server.instructions, c.server.name, c.otherServers));
  for (const s of half.benign) rows.push(...benignRows(s.tools, s.server, othersOf(half.benign, s.server)));
  return rows;
}

export function trainingSet(sets: readonly TrainingSetName[] = TRAINING_SETS): Example[] {
  return sets.flatMap((name) => setRows(name));
}

/** The threshold for a fitted model: the first of THRESHOLDS above every benign training tool the rest of the audit lets through. */
export function thresholdFor(rows: readonly Example[], model: { weights: number[]; bias: number }): number {
  const benignMax = Math.max(...rows.filter((r) => r.y === 0 && r.held !== true).map((r) => probabilityOf(r.x, model.weights, model.bias)));
  return THRESHOLDS.find((t) => t > benignMax) ?? 1;
}

export function fit(rows: readonly Example[]): { weights: number[]; bias: number } {
  const n = FEATURES.length;
  const positives = rows.filter((r) => r.y === 1).length;
  const negatives = rows.length - positives;
  // Class-balanced: each class weighs half of the loss.
  const classWeight = (y: 0 | 1): number => (y === 1 ? 0.5 / positives : 0.5 / negatives);
  const weights = new Array<number>(n).fill(0);
  let bias = 0;
  for (let step = 0; step < STEPS; step++) {
    const grad = new Array<number>(n).fill(0);
    let gradBias = 0;
    for (const { x, y } of rows) {
      const error = (probabilityOf(x, weights, bias) - y) * classWeight(y);
      for (let i = 0; i < n; i++) grad[i] = (grad[i] ?? 0) + error * (x[i] ?? 0);
      gradBias += error;
    }
    for (let i = 0; i < n; i++) weights[i] = (weights[i] ?? 0) - RATE * ((grad[i] ?? 0) + L2 * (weights[i] ?? 0));
    bias -= RATE * gradBias;
  }
  return { weights: weights.map((w) => Number(w.toFixed(4))), bias: Number(bias.toFixed(4)) };
}

export function render(model: { weights: number[]; bias: number }, threshold: number): string {
  const lines = FEATURES.map((f, i) => `  ${(model.weights[i] ?? 0).toFixed(4)}, // ${f}`);
  return [
    "// Generated by tests/mcp/audit/scripts/fit-intent-model.ts — do not edit by hand; re-run the script.",
    "// Fitted on sets v1–v4 (spent), tuning set v5, benign-extra(-2, -3) and the public corpus.",
    "export const MODEL_WEIGHTS: readonly number[] = [",
    ...lines,
    "];",
    `export const MODEL_BIAS = ${model.bias.toFixed(4)};`,
    `export const MODEL_THRESHOLD = ${threshold};`,
    "",
  ].join("\n");
}


/** The fitted model and its threshold: the first of THRESHOLDS above every benign training tool the rest of the audit lets through. */
export function fitted(): { text: string; threshold: number; rows: Example[]; model: { weights: number[]; bias: number } } {
  const rows = trainingSet();
  const model = fit(rows);
  const threshold = thresholdFor(rows, model);
  return { text: render(model, threshold), threshold, rows, model };
}
