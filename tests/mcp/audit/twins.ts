import { describe, expect, it } from "vitest";

/** One honest tool and its attack twin: same topic, same voice. */
export type Twins<T> = readonly [topic: string, honest: T, attack: T];

/**
 * For each cause, every honest tool is let through (pass or info) and its twin is held (warn or block), by the verdict
 * the caller gives (the rules alone, or the whole audit).
 */
export function describeTwins<T>(title: string, causes: ReadonlyArray<readonly [string, ReadonlyArray<Twins<T>>]>, verdict: (subject: T) => string): void {
  describe(title, () => {
    for (const [cause, pairs] of causes) {
      describe(cause, () => {
        for (const [topic, honest, attack] of pairs) {
          it(`lets through the honest ${topic} and holds its twin`, () => {
            expect(["pass", "info"]).toContain(verdict(honest));
            expect(["warn", "block"]).toContain(verdict(attack));
          });
        }
      });
    }
  });
}
