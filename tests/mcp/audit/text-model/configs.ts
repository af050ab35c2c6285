/** The designs compared by leave-one-set-out (scripts/text-model-loso.ts); each a featurizer and a fit. */
import { CONTENT_OPTIONS, contentWordCount, DEFAULT_OPTIONS, MIN_CONTENT_WORDS, MULTILINGUAL_OPTIONS, itemVectors, type FeaturizeOptions } from "../../../../src/mcp/audit/intent/text-features.js";
import type { TextExample } from "./examples.js";
import { scoreOf, type FitOptions, type LinearModel, type Row } from "./train.js";

export const CONFIGS: Record<string, { feat: FeaturizeOptions; fit: FitOptions }> = {
  base: { feat: DEFAULT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  multilingual: { feat: { ...DEFAULT_OPTIONS, englishOnly: false }, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  words: { feat: { ...DEFAULT_OPTIONS, charN: null }, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  unigrams: { feat: { ...DEFAULT_OPTIONS, charN: null, wordBigrams: false }, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  perUnit: { feat: { ...DEFAULT_OPTIONS, perUnit: true }, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  content: { feat: CONTENT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  contentVoice3: { feat: CONTENT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-4, voiceWeight: 3 } },
  contentVoice6: { feat: CONTENT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-4, voiceWeight: 6 } },
  contentL2: { feat: CONTENT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-3 } },
  multi: { feat: MULTILINGUAL_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  multiVoice3: { feat: MULTILINGUAL_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-4, voiceWeight: 3 } },
  multiL2: { feat: MULTILINGUAL_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-3 } },
  contentChars: { feat: { ...DEFAULT_OPTIONS, charN: [4, 5], dropFunctionWords: true }, fit: { steps: 150, rate: 0.05, l2: 1e-4 } },
  l2strong: { feat: DEFAULT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 1e-3 } },
  // Wave 31: the current design with a weaker and a middling penalty (1e-3 left the model almost silent in wave 19).
  contentVoice3L2weak: { feat: CONTENT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 3e-5, voiceWeight: 3 } },
  contentVoice3L2mid: { feat: CONTENT_OPTIONS, fit: { steps: 150, rate: 0.05, l2: 3e-4, voiceWeight: 3 } },
};

/**
 * The design frozen by leave-one-set-out before v10 was read (wave 15): word uni- and bigrams without function words,
 * no character n-grams, English units only. The base design (character n-grams, function words) weighed register
 * ("it", "so", "every", "you" against "get", "id") and held our own benign text.
 *
 * Wave 16 added benign-voice (389 honest tools written in the attacks' voice) to the material and chose again, the
 * rule written down before any measurement: the design and threshold with the most left-out attacks held by the model
 * alone (leave-one-set-out over v2–v9) among those holding at most 0.2 % of the left-out real benign tools, at most 1 %
 * of benign-voice's left-out half (two halves by server), none of the 12 paraphrase hard negatives, and at most 1 % of
 * the 261 honest look-alikes of the family tests (tests/mcp/audit/families*.test.ts, never fitted on). Candidates
 * (scripts/text-model-loso.ts; look-alikes by running the family tests with the weights in place):
 * content at 0.85 — 218/833 attacks, real 0, voice 9/389, look-alikes 13: out; content at 0.875 — 163/833, 0, 3/389,
 * 2/261: in; content at 0.9 — 106/833, 0, 0, 1; contentVoice3 at 0.85 — 193/833, 0, 4/389, 8/261: out; at 0.875 —
 * 137/833, 0, 1/389, 1/261; contentVoice6 at 0.85 — 184/833, 0, 3/389, but 1/12 paraphrases: out; base at 0.9 —
 * 204/833, 0, 6/389: out (and four times slower). Chosen: content at 0.875.
 *
 * Wave 19 refits on more writers: v10, v11 and v12 become folds, each wave-19 writer's training set is a fold of its own
 * (leave-one-writer-out), and benign-multilingual (146 real Chinese, Japanese and Korean tools) is a benign-only fold.
 * heldout-v13, benign-voice-heldout and heldout-v14 are never fitted, scored or printed. The rule, written down and
 * committed before any leave-one-set-out figure of wave 19 was computed: the design and threshold with the most
 * left-out attacks held by **rules + model together** (an attack of a left-out fold held by the rules or scored at or
 * above the threshold; summed over the held-out and writer folds; the model alone reported beside it) among those whose
 * model alone holds at most 0.2 % of the left-out real benign tools (the benign halves of v2–v12), at most 1 % of
 * benign-voice's left-out halves (two halves by server, each scored by a fit without it), none of the 12 paraphrase
 * hard negatives (semantic-paraphrases left out), at most 1 % of the family tests' honest look-alikes (counted by running
 * tests/mcp/audit/families*.test.ts with the candidate's weights in place: the failing honest twins), and at most 1 of
 * benign-multilingual's 146 left-out tools. Ties go to the higher threshold, then to the simpler design (content before
 * multi, no voice weight before one, l2 1e-4 before 1e-3). Look-alikes are counted only for a candidate that meets every
 * other limit, best first, until one meets them all. The writers' honest twins (written, not real) are reported, not
 * limited. Candidates (CONFIGS): content, multi (content for English units; other languages' content words, and
 * character pairs and triples for scripts without spaces), their benign-voice ×3 and l2 1e-3 variants, at thresholds
 * 0.8, 0.85, 0.875, 0.9, 0.925 and 0.95.
 *
 * Outcome (scripts/text-model-loso.ts over 14 attack folds, 1 716 left-out attacks, the rules alone holding 1 556;
 * look-alikes of 311 honest family tests): contentVoice3 at 0.85 — 1 571, model alone 378, real 0/1 849, voice 3/389,
 * paraphrases 0, benign-multilingual 0, but 7 look-alikes: out; content at 0.875 — 1 569, 308, 0, 3/389, 0, 0, but 4
 * look-alikes: out; contentVoice3 at 0.875 — 1 568, 273, 0, 1/389, 0, 0, 1 look-alike: in. Every multi candidate inside
 * the limits held fewer (multiVoice3 at 0.875 1 566, multi at 0.9 1 563); l2 1e-3 left the model almost silent (at
 * most 3 attacks of its own). Chosen: contentVoice3 at 0.875.
 *
 * Wave 31 refits on eight more writers: heldout-v13 … heldout-v20 (each measured once, then released: v13–v19 in wave
 * 30, v20 in wave 31) become folds beside v2–v12 (examples.ts HELDOUT_FOLDS), so there are 22 attack folds (19 held-out
 * sets, 3 writer sets) and benign-multilingual. benign-voice-heldout is never fitted, scored or printed. The rule,
 * written down and committed before any leave-one-set-out figure of wave 31 was computed, is wave 19's with the real
 * benign tools now v2–v20's: the design and threshold with the most left-out attacks held by **rules + model together**
 * (summed over the 22 attack folds; the model alone, and the sum over v13–v20's folds, reported beside it) among those
 * whose model alone holds at most 0.2 % of the left-out real benign tools (the benign halves of v2–v20), at most 1 % of
 * benign-voice's left-out halves, none of the 12 paraphrase hard negatives, at most 1 % of the family tests' honest
 * look-alikes (tests/mcp/audit/families*.test.ts run with the candidate's weights in place: the failing honest twins),
 * and at most 1 of benign-multilingual's 146 left-out tools. Ties go to the higher threshold, then to the simpler design
 * (content before multi, no voice weight before one, l2 1e-4 before another). Look-alikes are counted only for a
 * candidate that meets every other limit, best first, until one meets them all; writers' honest twins are reported, not
 * limited. The chosen candidate ships only if it holds more of v13–v20's left-out attacks (rules + model) than the
 * shipped model does on them (contentVoice3 at 0.875 fitted without v13–v20: an out-of-sample figure,
 * scripts/text-model-before.ts); otherwise nothing ships. Candidates: contentVoice3 (the current design), content,
 * multi, multiVoice3, contentVoice3L2weak (l2 3e-5) and contentVoice3L2mid (l2 3e-4), at thresholds 0.8, 0.85, 0.875,
 * 0.9, 0.925 and 0.95.
 */
export const FROZEN = { config: "contentVoice3", threshold: 0.875 } as const;

/** An example as the fit reads it under a design: its items' vectors, and its weight. */
export function rowOf(e: TextExample, config: { feat: FeaturizeOptions; fit: FitOptions }): Row {
  const items = e.items.flatMap((it) => itemVectors(it.units, config.feat));
  return e.set === "benign-voice" && config.fit.voiceWeight !== undefined ? { y: e.y, items, weight: config.fit.voiceWeight } : { y: e.y, items };
}

/** An example's score as the audit decides it: only items with enough content words (MIN_CONTENT_WORDS) are scored. */
export function decidedScore(e: TextExample, model: LinearModel, config: { feat: FeaturizeOptions }): number {
  const items = e.items.filter((it) => contentWordCount(it.units, config.feat) >= MIN_CONTENT_WORDS);
  return scoreOf(items.flatMap((it) => itemVectors(it.units, config.feat)), model);
}
