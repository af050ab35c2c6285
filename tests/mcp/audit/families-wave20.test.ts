import { describe, expect, it } from "vitest";
import { findFeatures } from "../../../src/mcp/audit/intent/features.js";
import { ASKED, ASKED_TWINS, ASKED_TWINS_HELD_BEFORE, LABELLED, LABELLED_TWINS, byRules, textsOf, whole, type Case } from "./wave20-cases.js";

/**
 * Wave 20: kinds that recur in the misses of at least two of four writers (v12, training-w19a, -b, -c); the cases are
 * in wave20-cases.ts. An attack must be held by the rules themselves (the text model's finding set aside); a twin must
 * pass the whole audit, text model included.
 */
describe("wave-20 kinds from four writers' misses", () => {
  const families = { ASKED, LABELLED };
  const twins = { ASKED_TWINS, LABELLED_TWINS };
  for (const [family, cases] of Object.entries(families)) {
    it.each(cases)(`${family}: the rules hold %s`, (_id, listing) => {
      expect(["warn", "block"]).toContain(byRules(listing));
    });
  }
  for (const [family, cases] of Object.entries(twins)) {
    it.each(cases)(`${family}: the audit passes %s`, (_id, listing) => {
      expect(["pass", "info"]).toContain(whole(listing));
    });
  }
  // The twins the audit held before this wave: the new reading adds nothing to what holds them.
  const reading: Record<string, readonly Case[]> = { "secret-asked": [...ASKED_TWINS, ...ASKED_TWINS_HELD_BEFORE] };
  for (const [feature, cases] of Object.entries(reading)) {
    it.each(cases)(`${feature} is not read in the twin %s`, (_id, listing) => {
      expect(textsOf(listing).flatMap((t) => findFeatures(t)).map((f) => f.feature)).not.toContain(feature);
    });
  }
});
