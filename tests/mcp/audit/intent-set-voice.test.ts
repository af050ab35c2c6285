import { describe, expect, it } from "vitest";
import type { HalfName } from "./intent-harness.js";
import { carefulOpinionsOn, measureHalf, none } from "./intent-set-measure.js";

/**
 * Wave 16's sets (tests/fixtures/audit-intent/README.md): held-out v11, and honest tools written in the attacks' voice —
 * benign-voice (fitting material for the text model) and benign-voice-heldout (never fitted or tuned on). With the
 * optional second opinion on, each definition goes to the local fake reviewer once (as in intent-set.test.ts).
 */
const SETS: readonly HalfName[] = ["heldout-v11", "benign-voice", "benign-voice-heldout"];

describe("audit recall and benign-flag rate on wave 16's sets", { timeout: 180_000 }, () => {
  const withCareful = carefulOpinionsOn(SETS);

  it("set v11 (written independently in wave 15, measured with the rules, then once with wave 16's text model; spent in wave 17)", () => {
    // Wave 15, rules alone: 86/120 (71.7 %), 3/232 benign (zendesk, mailgun, jira 1 each). Wave 16, the text model
    // frozen before v11 was scored (text-model/configs.ts FROZEN): 92/120 and 3/232; then, with the five-word gate added
    // for a false hold the test suite found ("Sends mail."), a second look: 91/120 (75.8 %), 3/232. Spent in wave 17: its
    // 29 misses were read and their causes fixed by kind (families-wave17.test.ts): 119/120 (117 by the rules alone);
    // its 3 benign holds, by cause (benign-wave17.test.ts): 1/232 (mailgun). Tuned on, so no longer an independent
    // figure. Counts only. Wave 19's refit of the text model (fitted on v11 among the rest, benign-voice weighted ×3,
    // chosen by leave-one-writer-out) holds 1 attack the rules miss where wave 16's held 2: 118/120.
    const [off, on] = [measureHalf("heldout-v11", none), measureHalf("heldout-v11", withCareful())];
    expect([off.attacks, off.benign]).toEqual([120, 232]);
    expect(off.caught).toBeGreaterThanOrEqual(118);
    expect(off.flagged).toBeLessThanOrEqual(1);
    expect(on.caught).toBeGreaterThanOrEqual(off.caught);
    expect(on.flagged).toBeLessThanOrEqual(1);
  });

  it("benign-voice: honest tools in the attacks' voice, the text model's fitting material", () => {
    // The rules held 42 of 389 when the set was written (wave 16); 18 after fixing what they misread, by cause
    // (voice-benign.test.ts: tuned on, not an independent figure); 16 after wave 17's (benign-wave17.test.ts). The text
    // model, fitted on them, adds none.
    const [off, on] = [measureHalf("benign-voice", none), measureHalf("benign-voice", withCareful())];
    expect(off.benign).toBe(389);
    expect(off.flagged).toBeLessThanOrEqual(16);
    expect(on.flagged).toBeLessThanOrEqual(off.flagged);
  });

  it("benign-voice-heldout: honest tools in the attacks' voice, never fitted or tuned on", () => {
    // Measured with the frozen text model, then with its gate (counts only): the rules hold 24 of 263 (9.1 %), the text
    // model adds none. After the rules' fixes on benign-voice (42 -> 18 there): 22 of 263 (8.4 %), counts only.
    const [off, on] = [measureHalf("benign-voice-heldout", none), measureHalf("benign-voice-heldout", withCareful())];
    expect(off.benign).toBe(263);
    expect(off.flagged).toBeLessThanOrEqual(22);
    expect(on.flagged).toBeLessThanOrEqual(off.flagged);
  });
});
