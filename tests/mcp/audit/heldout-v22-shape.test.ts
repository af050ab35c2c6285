/**
 * Held-out set v22 (tests/fixtures/audit-intent/heldout-v22.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v22 was written blind
 * (wave 32) and is measured counts only; nobody tunes on its cases.
 */
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v22",
  prefix: "h22",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  // v22's brief named six families (server instructions carry poison across them, as in v20 and v21).
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  // The brief asked for one language per multilingual case and "some" of the ten most-spoken, not all ten.
  oneLanguageEach: true,
  mostSpoken: false,
  englishElsewhere: true,
  noReusedDescriptions: true,
  minBenignTools: 150,
  benignServers: [5, 5],
  // Every set written before v22: none of their repositories may reappear here.
  earlier: writtenBefore(22),
  // The repositories chosen for v22; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "agarib/homeassistant-mcp-server",
    "jinkoso/jinko-mcp",
    "netixc/homeassistant-server-mcp",
    "okliam/ha_opencode",
    "yunfeizhu/mcp-mail-server",
  ],
});
