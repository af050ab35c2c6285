import { describeHeldoutFloor } from "./heldout-floor.js";

/**
 * Held-out set v23 (tests/fixtures/audit-intent/README.md), written in wave 33 by someone who never read the rules nor
 * that README, in the voices of agriculture, food and restaurants, real estate, construction and architecture,
 * automotive and mobility, and insurance, with 185 benign tools from nine server listings no earlier set used.
 */
// Wave 33, counts only. On main when the set arrived (rules and text model as wave 32 left them): 80/120 (66.7 %) —
// context 12/20, shadowing 20/20, steering 11/20, encoded 17/20, credentials 9/20, multilingual 11/20 — and 1/185
// benign (0.5 %: revit-mcp 1). After the wave's two rounds (rules and multilingual vocabulary, written from v13–v22's
// misses without sight of v23): the same 80/120 and 1/185, family by family. The same with the fake second opinion on.
describeHeldoutFloor(
  "heldout-v23",
  "set v23 (written independently in wave 33), measured once the wave's changes were in, counts only",
  { attacks: 120, benign: 185, caughtAtLeast: 80, flaggedAtMost: 1 },
);
