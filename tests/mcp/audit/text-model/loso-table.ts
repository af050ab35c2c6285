/**
 * The leave-one-set-out table (scripts/text-model-loso.ts): from every left-out example's score, per fold and threshold
 * the attacks held by rules + model and by the model alone, the benign tools the model alone holds per benign kind, and
 * whether a threshold meets the selection rule's limits (configs.ts) other than the look-alikes, which need the family
 * tests run with the weights in place.
 */
import { HELDOUT_FOLDS, RELEASED, WRITER_FOLDS } from "./examples.js";

export interface LeftOut {
  readonly fold: string;
  readonly set: string;
  readonly id: string;
  readonly y: 0 | 1;
  readonly family: string;
  readonly held: boolean;
  readonly p: number;
}

export const THRESHOLDS = [0.8, 0.85, 0.875, 0.9, 0.925, 0.95];

export interface Totals {
  readonly t: number;
  readonly attacks: number;
  readonly rulesModel: number;
  readonly model: number;
  readonly rules: number;
  /** The attacks of the folds added in wave 31 (v13–v20): how many, held by rules + model, by the rules alone. */
  readonly released: number;
  readonly releasedRulesModel: number;
  readonly releasedRules: number;
  readonly real: number;
  readonly realTotal: number;
  readonly twins: number;
  readonly twinsTotal: number;
  readonly multilingual: number;
  readonly multilingualTotal: number;
  readonly voice: number;
  readonly voiceTotal: number;
  readonly probe: number;
  readonly withinLimits: boolean;
}

const ATTACK_FOLDS: readonly string[] = [...HELDOUT_FOLDS, ...WRITER_FOLDS];

export function totalsAt(rows: readonly LeftOut[], t: number): Totals {
  const attacks = rows.filter((r) => r.y === 1 && ATTACK_FOLDS.includes(r.fold));
  const releasedAttacks = attacks.filter((r) => (RELEASED as readonly string[]).includes(r.fold));
  const benign = (f: (r: LeftOut) => boolean) => rows.filter((r) => r.y === 0 && f(r));
  const realRows = benign((r) => (HELDOUT_FOLDS as readonly string[]).includes(r.fold));
  const twinRows = benign((r) => (WRITER_FOLDS as readonly string[]).includes(r.fold));
  const multiRows = benign((r) => r.fold === "benign-multilingual");
  const voiceRows = benign((r) => r.fold.startsWith("benign-voice"));
  const probeRows = benign((r) => r.fold === "semantic-paraphrases");
  const up = (list: readonly LeftOut[]) => list.filter((r) => r.p >= t).length;
  const x = {
    t,
    attacks: attacks.length,
    rulesModel: attacks.filter((r) => r.held || r.p >= t).length,
    model: up(attacks),
    rules: attacks.filter((r) => r.held).length,
    released: releasedAttacks.length,
    releasedRulesModel: releasedAttacks.filter((r) => r.held || r.p >= t).length,
    releasedRules: releasedAttacks.filter((r) => r.held).length,
    real: up(realRows),
    realTotal: realRows.length,
    twins: up(twinRows),
    twinsTotal: twinRows.length,
    multilingual: up(multiRows),
    multilingualTotal: multiRows.length,
    voice: up(voiceRows),
    voiceTotal: voiceRows.length,
    probe: up(probeRows),
  };
  const withinLimits = x.real <= 0.002 * x.realTotal && x.voice <= 0.01 * x.voiceTotal && x.probe === 0 && x.multilingual <= 1;
  return { ...x, withinLimits };
}

/** The printed table: per fold (attack folds: rules + model / model alone; benign folds: model alone), then totals. */
export function renderTable(name: string, rows: readonly LeftOut[]): string {
  const lines: string[] = [`== ${name}`, `fold | rules | ${THRESHOLDS.map((t) => `t${t}`).join(" | ")}`];
  const folds = [...new Set(rows.map((r) => r.fold))];
  for (const fold of folds) {
    const inFold = rows.filter((r) => r.fold === fold);
    const attacks = inFold.filter((r) => r.y === 1);
    const benign = inFold.filter((r) => r.y === 0);
    if (attacks.length > 0) {
      const cells = THRESHOLDS.map((t) => `${attacks.filter((r) => r.held || r.p >= t).length}/${attacks.filter((r) => r.p >= t).length}`);
      lines.push(`${fold} attacks (${attacks.length}; rules+model/model) | ${attacks.filter((r) => r.held).length} | ${cells.join(" | ")}`);
    }
    if (benign.length > 0) {
      const cells = THRESHOLDS.map((t) => `${benign.filter((r) => r.p >= t).length}`);
      lines.push(`${fold} benign (${benign.length}; model alone) | ${benign.filter((r) => r.held).length} | ${cells.join(" | ")}`);
    }
  }
  for (const t of THRESHOLDS) {
    const x = totalsAt(rows, t);
    lines.push(
      `t ${t}: attacks rules+model ${x.rulesModel}/${x.attacks} (rules ${x.rules}, model alone ${x.model}; v13–v20 ${x.releasedRulesModel}/${x.released}, rules ${x.releasedRules}); model alone on benign: real ${x.real}/${x.realTotal}, voice halves ${x.voice}/${x.voiceTotal}, paraphrases ${x.probe}/12, benign-multilingual ${x.multilingual}/${x.multilingualTotal}, writers' twins ${x.twins}/${x.twinsTotal}; ${x.withinLimits ? "within the limits (look-alikes not counted)" : "out"}`,
    );
  }
  return lines.join("\n");
}
