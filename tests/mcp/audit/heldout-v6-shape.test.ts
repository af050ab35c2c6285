/**
 * Held-out set v6 (tests/fixtures/audit-intent/heldout-v6.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v6 is measured once,
 * by tests/mcp/audit/scripts/measure-v6.ts, and nobody tunes on its cases.
 */
import { describeHeldoutSet } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v6",
  prefix: "h6",
  minAttacks: 96,
  minPerFamily: 14,
  minMultilingual: 26,
  minBenignTools: 110,
  benignServers: [4, 6],
  // The servers the brief allowed, less the two an earlier set already used (stripe/agent-toolkit in v2,
  // paypal/agent-toolkit in benign-extra-2).
  allowedRepos: [
    "redis/mcp-redis",
    "brave/brave-search-mcp-server",
    "sooperset/mcp-atlassian",
    "square/square-mcp-server",
    "box-community/mcp-server-box",
    "JetBrains/mcp-jetbrains",
    "googleapis/genai-toolbox",
    "firebase/firebase-tools",
    "perplexityai/modelcontextprotocol",
    "cloudflare/mcp-server-cloudflare",
    "browserbase/mcp-server-browserbase",
  ],
  earlier: ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "heldout-v5", "benign-extra", "benign-extra-2", "benign-extra-3", "tuning-v5"],
  englishElsewhere: true,
  noReusedDescriptions: true,
});
