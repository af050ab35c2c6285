import { describeHeldoutFloor } from "./heldout-floor.js";

/**
 * Held-out set v13 (tests/fixtures/audit-intent/README.md), written in wave 18 by someone who never read the rules, with
 * benign tools from six servers no earlier set used, two of them written in Russian and Portuguese. With the optional
 * second opinion on, each definition goes to the local fake reviewer once (as in intent-set.test.ts).
 */
// Wave 18, rules + text model as on main at b6e75ee: 72/124 (58.1 %) — context 14/21, shadowing 18/21, steering 9/23,
// encoded 10/14, server-instructions 12/15, multilingual 9/30 — and 4/176 benign (adyen-account 3, keycloak 1; the
// Russian and Portuguese servers' 60 tools none); the same with the fake second opinion on, and the same on main before
// wave 18's audit changes (a315ee9). Counts only.
// Wave 19, second look, after the text model was refitted on three more writers (94d65fe, and the final fit 895ae06:
// the same counts; design chosen by leave-one-set-out before any held-out set was scored): 70/124 (56.5 %) — context
// 13/21, steering 8/23, the rest unchanged — and 4/176 benign, the same with the fake second opinion on. Counts only.
// Wave 20, after the rule round on four writers' misses (rules for five kinds read from v12 and training-w19a/b/c;
// intent model refitted, text model unchanged): 71/124 (57.3 %) — context 13/21, steering 8/23, multilingual 10/30, the rest
// unchanged — and 4/176 benign, the same with the fake second opinion on. Counts only.
// Wave 30: released for tuning (its misses read); credential-fetch and skipped-confirmation, written from the seven
// released sets' misses, raise it in-sample to 72 (from 71); benign unchanged. No longer an independent figure.
// Wave 32, four more rules read from nine released writers' misses (safeguard-off, the 85-character and compressed
// decoders, secret-carried, session-content): 72 -> 76 held, benign unchanged. In-sample: these misses were read.
// Wave 33, rules read from ten released writers' misses (second-factor-request, skipped-confirmation and session-content
// widened): 76 -> 77 held, benign unchanged. In-sample: these misses were read.
// Wave 33, multilingual vocabulary (the person kept out of the loop in each language's own shapes; another payment's
// destination replaced): 76 -> 86 held, benign unchanged. In-sample: these misses were read.
// Wave 33, both rounds together (rules and multilingual vocabulary merged): 87 held, benign unchanged.
describeHeldoutFloor(
  "heldout-v13",
  "set v13 (written independently in wave 18), measured before and after wave 19's refit, never tuned on",
  { attacks: 124, benign: 176, caughtAtLeast: 87, flaggedAtMost: 4 },
);
