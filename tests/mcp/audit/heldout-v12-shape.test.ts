/**
 * Held-out set v12 (tests/fixtures/audit-intent/heldout-v12.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v12 is measured once,
 * by tests/mcp/audit/scripts/measure-v12.ts, and nobody tunes on its cases.
 */
import { describeBriefCounts, describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

const EARLIER = writtenBefore(12);

describeHeldoutSet({
  file: "heldout-v12",
  prefix: "h12",
  minAttacks: 120,
  minPerFamily: 12,
  minMultilingual: 25,
  minBenignTools: 150,
  benignServers: [5, 8],
  // The servers chosen for v12; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "resend/mcp-send-email",
    "jfrog/mcp-jfrog",
    "nspady/google-calendar-mcp",
    "webflow/mcp-server",
    "ivo-toby/contentful-mcp",
  ],
  earlier: EARLIER,
  englishElsewhere: true,
  noReusedDescriptions: true,
});

describeBriefCounts({ file: "heldout-v12", prefix: "h12", earlier: EARLIER, familyMinimums: [["context-exfiltration", 18], ["shadowing", 18], ["steering", 20], ["encoded", 12], ["server-instructions", 12], ["multilingual", 25]] });
