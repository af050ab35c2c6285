/**
 * Held-out set v10 (tests/fixtures/audit-intent/heldout-v10.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v10 is measured once,
 * by tests/mcp/audit/scripts/measure-v10.ts, and nobody tunes on its cases.
 */
import { describeBriefCounts, describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(10);

describeHeldoutSet({
  file: "heldout-v10",
  prefix: "h10",
  minAttacks: 140,
  minPerFamily: 15,
  minMultilingual: 32,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v10; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "mondaycom/mcp",
    "shinzo-labs/hubspot-mcp",
    "delorenj/mcp-server-trello",
    "cloudflare/mcp-server-cloudflare",
    "nganiet/mcp-vercel",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describeBriefCounts({ file: "heldout-v10", prefix: "h10", earlier: EARLIER, familyMinimums: [["context-exfiltration", 24], ["shadowing", 22], ["steering", 28], ["encoded", 15], ["server-instructions", 18], ["multilingual", 32]] });
