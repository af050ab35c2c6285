import { describe, expect, it } from "vitest";
import type { HalfName } from "./intent-harness.js";
import { measureHalf, none } from "./intent-set-measure.js";

/**
 * The wave-19 writers' training sets (tests/fixtures/audit-intent/README.md): fitting material for the text model, and
 * in wave 20 the misses a rule round read by kind with v12's (families-wave20.test.ts). Whole audit, no second opinion,
 * counts only. Before wave 20: w19a 140/167, 4/176 honest twins held; w19b 136/158, 2/158; w19c 131/162, 7/163. These
 * floors keep later changes from losing the kinds fixed; they say nothing about writers not yet read.
 */
const FLOORS: ReadonlyArray<readonly [HalfName, number, number, number, number]> = [
  ["training-w19a", 167, 176, 161, 4],
  ["training-w19b", 158, 158, 150, 2],
  ["training-w19c", 162, 163, 152, 7],
];

describe("audit recall and honest twins held on the wave-19 writers' training sets", { timeout: 180_000 }, () => {
  it.each(FLOORS)("%s: %i attacks, %i twins; at least %i held, at most %i twins held", (name, attacks, benign, caughtAtLeast, flaggedAtMost) => {
    const figures = measureHalf(name, none);
    expect([figures.attacks, figures.benign]).toEqual([attacks, benign]);
    expect(figures.caught).toBeGreaterThanOrEqual(caughtAtLeast);
    expect(figures.flagged).toBeLessThanOrEqual(flaggedAtMost);
  });
});
