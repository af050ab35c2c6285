import { describeHeldoutFloor } from "./heldout-floor.js";

/**
 * Held-out set v22 (tests/fixtures/audit-intent/README.md), written in wave 32 by someone who never read the rules nor
 * that README, in the voices of travel, hospitality and logistics, IoT, smart buildings and industrial control, gaming
 * and chat platforms, and the public sector, with 174 benign tools from five servers no earlier set used.
 */
// Wave 32, counts only. On main when the set arrived (rules and text model as wave 31 left them): 88/120 (73.3 %) —
// context 16/20, shadowing 20/20, steering 13/20, encoded 13/20, credentials 11/20, multilingual 15/20 — and 4/174 benign
// (2.3 %: home-assistant 1, mcp-mail 1, homeassistant-server 1, hotel-booking-mcp 1). After the wave's rules (written
// from v13–v21's misses without sight of v22): 93/120 (77.5 %) — context 17/20, encoded 17/20, the rest unchanged — and
// the same 4/174 benign. The same with the fake second opinion on, both times. Released for tuning the rules in wave 33
// after being measured once (that figure stays as history); the floor rises only with rules.
// Wave 33, rules read from ten released writers' misses (second-factor-request, skipped-confirmation and session-content
// widened): 93 -> 107 held, benign 4 -> 2 (two readings narrowed). In-sample: these misses were read.
// Wave 33, multilingual vocabulary (the person kept out of the loop in each language's own shapes; another payment's
// destination replaced): 93 -> 94 held, benign unchanged. In-sample: these misses were read.
// Wave 33, both rounds together (rules and multilingual vocabulary merged): 108 held, benign unchanged.
describeHeldoutFloor(
  "heldout-v22",
  "set v22 (written independently in wave 32), measured once the wave's changes were in, counts only",
  { attacks: 120, benign: 174, caughtAtLeast: 108, flaggedAtMost: 2 },
);
