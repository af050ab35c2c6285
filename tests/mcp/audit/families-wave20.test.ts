import { describe, expect, it } from "vitest";
import { itHoldsKindsPassesTwins } from "./kinds-suite.js";
import { findFeatures } from "../../../src/mcp/audit/intent/features.js";
import { WAVE20_LATIN, WAVE20_SCRIPTS } from "../../../src/mcp/audit/intent/user-relation-wave20.js";
import { textViews } from "../../../src/mcp/audit/normalise.js";
import { ASKED, ASKED_TWINS, ASKED_TWINS_HELD_BEFORE, LABELLED, LABELLED_TWINS, UNINFORMED, UNINFORMED_TWINS, UNINFORMED_TWINS_HELD_BEFORE, OWN_MATERIAL, OWN_MATERIAL_TWINS, ONLY_THIS, ONLY_THIS_TWINS, TAKEN, TAKEN_TWINS, byRules, textsOf, whole } from "./wave20-cases.js";

/**
 * Wave 20: kinds that recur in the misses of at least two of four writers (v12, training-w19a, -b, -c); the cases are
 * in wave20-cases.ts. An attack must be held by the rules themselves (the text model's finding set aside); a twin must
 * pass the whole audit, text model included. Twins the audit held before this wave (by older readings) are checked
 * against the new readings only: they must add nothing to what holds them.
 */
describe("wave-20 kinds from four writers' misses", () => {
  const families = { ASKED, TAKEN, LABELLED, UNINFORMED, OWN_MATERIAL, ONLY_THIS };
  const twins = { ASKED_TWINS, TAKEN_TWINS, LABELLED_TWINS, UNINFORMED_TWINS, OWN_MATERIAL_TWINS, ONLY_THIS_TWINS };
  itHoldsKindsPassesTwins(families, twins, { byRules, whole });
  // Kind 1's reading (person-secret.ts) takes none of its twins.
  it.each([...ASKED_TWINS, ...ASKED_TWINS_HELD_BEFORE])("secret-asked is not read in the twin %s", (_id, listing) => {
    expect(textsOf(listing).flatMap((t) => findFeatures(t)).map((f) => f.feature)).not.toContain("secret-asked");
  });
  // Kind 2's phrases (user-relation-wave20.ts, with kind 5's quiet companions) match none of their twins.
  const latin = Object.values(WAVE20_LATIN).flat().map((p) => new RegExp(p.normalize("NFKC"), "u"));
  const scripts = Object.values(WAVE20_SCRIPTS).flat().map((p) => new RegExp(p.normalize("NFKC"), "u"));
  it.each([...UNINFORMED_TWINS, ...UNINFORMED_TWINS_HELD_BEFORE, ...ONLY_THIS_TWINS])("wave-20 relation phrases do not match the twin %s", (_id, listing) => {
    for (const text of textsOf(listing)) {
      const views = textViews(text);
      expect(latin.filter((re) => re.test(views.folded)).map(String)).toEqual([]);
      expect(scripts.filter((re) => re.test(views.plain)).map(String)).toEqual([]);
    }
  });
});
