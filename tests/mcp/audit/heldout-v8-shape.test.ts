/**
 * Held-out set v8 (tests/fixtures/audit-intent/heldout-v8.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v8 is measured once,
 * by tests/mcp/audit/scripts/measure-v8.ts, and nobody tunes on its cases.
 */
import { describeBriefCounts, describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(8);

describeHeldoutSet({
  file: "heldout-v8",
  prefix: "h8",
  minAttacks: 130,
  minPerFamily: 15,
  minMultilingual: 30,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v8; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "roychri/mcp-server-asana",
    "greirson/mcp-todoist",
    "tsmztech/mcp-server-salesforce",
    "barryyip0625/mcp-discord",
    "MarkusPfundstein/mcp-gsuite",
    "MarkusPfundstein/mcp-obsidian",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describeBriefCounts({ file: "heldout-v8", prefix: "h8", earlier: EARLIER, familyMinimums: [["context-exfiltration", 22], ["shadowing", 20], ["steering", 25], ["encoded", 15], ["server-instructions", 18], ["multilingual", 30]] });
