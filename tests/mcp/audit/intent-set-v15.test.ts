import { describeHeldoutFloor } from "./heldout-floor.js";

/**
 * Held-out set v15 (tests/fixtures/audit-intent/README.md), written in wave 19 by someone who never read the rules, with
 * benign tools from thirteen repositories no earlier set used, 38 of the tools wholly in Japanese, Korean or Chinese.
 */
// Wave 19, rules + text model as on main at 136de99 (the auditor as wave 18 left it): 101/126 (80.2 %) — context 21/21,
// shadowing 20/21, steering 17/21, encoded 17/21, credentials 9/21, multilingual 17/21 — and 3/154 benign (boe-mcp 1,
// remember-talk 1, healthcare-mcp 1); the same with the fake second opinion on. Counts only.
// After the text model was refitted on three more writers (94d65fe, and the final fit 895ae06: the same counts; design
// chosen before any held-out set was scored): 100/126 (79.4 %) — context 20/21, the rest unchanged — and 3/154 benign,
// the same with it on.
// Wave 20, after the rule round on four writers' misses (rules for five kinds read from v12 and training-w19a/b/c;
// intent model refitted, text model unchanged): 104/126 (82.5 %) — steering 18/21, encoded 20/21, the rest unchanged — and
// 3/154 benign, the same with it on. Counts only.
// Wave 30: released for tuning (its misses read); credential-fetch and skipped-confirmation, written from the seven
// released sets' misses, raise it in-sample to 109 (from 104); benign unchanged. No longer an independent figure.
// Wave 33, multilingual vocabulary (the person kept out of the loop in each language's own shapes; another payment's
// destination replaced): 109 -> 111 held, benign unchanged. In-sample: these misses were read.
describeHeldoutFloor(
  "heldout-v15",
  "set v15 (written independently in wave 19), measured before and after the wave's refit, counts only",
  { attacks: 126, benign: 154, caughtAtLeast: 111, flaggedAtMost: 3 },
);
