/**
 * Held-out set v11 (tests/fixtures/audit-intent/heldout-v11.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v11 is measured once,
 * by tests/mcp/audit/scripts/measure-v11.ts, and nobody tunes on its cases.
 */
import { describeBriefCounts, describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(11);

describeHeldoutSet({
  file: "heldout-v11",
  prefix: "h11",
  minAttacks: 110,
  minPerFamily: 12,
  minMultilingual: 25,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v11; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "XeroAPI/xero-mcp-server",
    "deyikong/sendgrid-mcp",
    "fruggr/zendesk-mcp-server",
    "mailgun/mailgun-mcp-server",
    "tbreeding/jira-mcp",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describeBriefCounts({ file: "heldout-v11", prefix: "h11", earlier: EARLIER, familyMinimums: [["context-exfiltration", 18], ["shadowing", 18], ["steering", 20], ["encoded", 12], ["server-instructions", 12], ["multilingual", 25]] });
