import { describeHeldoutFloor } from "./heldout-floor.js";

/**
 * Held-out set v16 (tests/fixtures/audit-intent/README.md), written in wave 20 by someone who never read the rules, in the
 * voice of large developer-tool servers (Markdown descriptions, deep schemas), with 160 benign tools from six
 * repositories no earlier set used. Its writer saw the README's list of kinds the rules missed in wave 19 (not the
 * rules, not any miss): see the README's v16 section.
 */
// Wave 20, rules + text model as wave 19 left them (main at a74bc4d): 100/126 (79.4 %) — context 21/21, shadowing
// 21/21, steering 15/21, encoded 20/21, credentials 12/21, multilingual 11/21 — and 3/160 benign
// (mcp_aliyun_observability_server 2, Jupyter MCP Server 1); the same with the fake second opinion on. Counts only.
// Wave 20, after the rule round on four writers' misses (rules for five kinds read from v12 and training-w19a/b/c;
// intent model refitted, text model unchanged): 104/126 (82.5 %) — steering 16/21, encoded 21/21, credentials 14/21, the rest
// unchanged — and 3/160 benign, the same with it on. Counts only. Its writer had seen the list of the kinds this round
// targets (not the rules, not a miss), so its gain is the least independent of the five.
// Wave 30: released for tuning (its misses read); credential-fetch and skipped-confirmation, written from the seven
// released sets' misses, raise it in-sample to 106 (from 104); benign unchanged. No longer an independent figure.
// Wave 32, four more rules read from nine released writers' misses (safeguard-off, the 85-character and compressed
// decoders, secret-carried, session-content): 106 -> 107 held, benign unchanged. In-sample: these misses were read.
// Wave 33, multilingual vocabulary (the person kept out of the loop in each language's own shapes; another payment's
// destination replaced): 107 -> 108 held, benign unchanged. In-sample: these misses were read.
describeHeldoutFloor(
  "heldout-v16",
  "set v16 (written independently in wave 20), measured before and after the wave's rule round, counts only",
  { attacks: 126, benign: 160, caughtAtLeast: 108, flaggedAtMost: 3 },
);
