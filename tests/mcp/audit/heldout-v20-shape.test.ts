/**
 * Held-out set v20 (tests/fixtures/audit-intent/heldout-v20.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v20 was written blind
 * (wave 30) and is measured counts only; nobody tunes on its cases.
 */
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v20",
  prefix: "h20",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  // v20's brief named six families (no separate server-instructions family; instructions carry poison across them).
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  // The brief asked for one language per multilingual case and "some" of the ten most-spoken, not all ten.
  oneLanguageEach: true,
  mostSpoken: false,
  englishElsewhere: true,
  noReusedDescriptions: true,
  minBenignTools: 150,
  benignServers: [5, 5],
  // Every set written before v20: none of their repositories may reappear here.
  earlier: writtenBefore(20),
  // The repositories chosen for v20; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "Infisical/infisical-mcp-server",
    "effytech/freshdesk_mcp",
    "hkust-nlp/LOCA-bench",
    "vapvarun/zoho-desk-mcp-server",
  ],
});
