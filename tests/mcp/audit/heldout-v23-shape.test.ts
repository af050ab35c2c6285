/**
 * Held-out set v23 (tests/fixtures/audit-intent/heldout-v23.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v23 was written blind
 * (wave 33) and is measured counts only; nobody tunes on its cases.
 */
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v23",
  prefix: "h23",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  // v23's brief named six families (server instructions carry poison across them, as in v20 to v22).
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  // The brief asked for one language per multilingual case and "some" of the ten most-spoken, not all ten.
  oneLanguageEach: true,
  mostSpoken: false,
  englishElsewhere: true,
  noReusedDescriptions: true,
  minBenignTools: 150,
  // Nine server listings (from eight repositories: cdmx-in/authentik-mcp holds two servers).
  benignServers: [9, 9],
  // Every set written before v23: none of their repositories may reappear here.
  earlier: writtenBefore(23),
  // The repositories chosen for v23; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "Octodet/keycloak-mcp",
    "Sideko-Inc/insurance-api-demo",
    "akrowczyk/tessie-mcp-server",
    "cdmx-in/authentik-mcp",
    "keithah/tessie-mcp",
    "rersozlu/food402",
    "stefanogebara/restaurant-ai-mcp",
    "vespo92/revit-mcp",
  ],
});
