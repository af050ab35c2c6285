/**
 * Held-out set v21 (tests/fixtures/audit-intent/heldout-v21.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v21 was written blind
 * (wave 31) and is measured counts only; nobody tunes on its cases.
 */
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v21",
  prefix: "h21",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  // v21's brief named six families (server instructions carry poison across them, as in v20).
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  // The brief asked for one language per multilingual case and "some" of the ten most-spoken, not all ten.
  oneLanguageEach: true,
  mostSpoken: false,
  englishElsewhere: true,
  noReusedDescriptions: true,
  minBenignTools: 150,
  benignServers: [5, 5],
  // Every set written before v21: none of their repositories may reappear here.
  earlier: writtenBefore(21),
  // The repositories chosen for v21; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "GrimCyberMed/MedResearch-AI",
    "Kartha-AI/agentcare-mcp",
    "bcharleson/instantly-mcp",
    "docdyhr/mcp-wordpress",
    "rkirkendall/medplum-mcp",
  ],
});
