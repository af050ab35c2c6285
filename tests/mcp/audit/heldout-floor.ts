import { describe, expect, it } from "vitest";
import type { HalfName } from "./intent-harness.js";
import { carefulOpinionsOn, measureHalf, none } from "./intent-set-measure.js";

/** What a held-out set's test pins: its size, and the last measured counts as a floor (attacks) and a ceiling (benign). */
export interface HeldoutFloor {
  readonly attacks: number;
  readonly benign: number;
  readonly caughtAtLeast: number;
  readonly flaggedAtMost: number;
}

/**
 * One held-out set measured as its writer's brief promised: the audit with the optional second opinion off, and on
 * (each definition sent once to the local fake reviewer, as in intent-set.test.ts). Counts only: the test never says
 * which cases are missed or held. Each set's own test file keeps its measurement history beside the call.
 */
export function describeHeldoutFloor(name: HalfName, title: string, floor: HeldoutFloor): void {
  describe(`audit recall and benign-flag rate on held-out set ${name.replace("heldout-", "")}`, { timeout: 180_000 }, () => {
    const withCareful = carefulOpinionsOn([name]);

    it(title, () => {
      const [off, on] = [measureHalf(name, none), measureHalf(name, withCareful())];
      expect([off.attacks, off.benign]).toEqual([floor.attacks, floor.benign]);
      expect(off.caught).toBeGreaterThanOrEqual(floor.caughtAtLeast);
      expect(off.flagged).toBeLessThanOrEqual(floor.flaggedAtMost);
      expect(on.caught).toBeGreaterThanOrEqual(off.caught);
      expect(on.flagged).toBeLessThanOrEqual(floor.flaggedAtMost);
    });
  });
}
