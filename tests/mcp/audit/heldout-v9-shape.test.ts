/**
 * Held-out set v9 (tests/fixtures/audit-intent/heldout-v9.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v9 is measured once,
 * by tests/mcp/audit/scripts/measure-v9.ts, and nobody tunes on its cases.
 */
import { describeBriefCounts, describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(9);

describeHeldoutSet({
  file: "heldout-v9",
  prefix: "h9",
  minAttacks: 140,
  minPerFamily: 15,
  minMultilingual: 30,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v9; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "chigwell/telegram-mcp",
    "sooperset/mcp-atlassian",
    "GongRzhe/Gmail-MCP-Server",
    "winor30/mcp-server-datadog",
    "domdomegg/airtable-mcp-server",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describeBriefCounts({ file: "heldout-v9", prefix: "h9", earlier: EARLIER, familyMinimums: [["context-exfiltration", 24], ["shadowing", 20], ["steering", 28], ["encoded", 15], ["server-instructions", 18], ["multilingual", 30]] });
