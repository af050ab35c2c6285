/**
 * Held-out set v5 (tests/fixtures/audit-intent/heldout-v5.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v5 was measured once,
 * by tests/mcp/audit/scripts/measure-v5.ts (and is spent since wave 9).
 */
import { describeHeldoutSet } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v5",
  prefix: "h5",
  minAttacks: 84,
  minPerFamily: 12,
  minMultilingual: 24,
  minBenignTools: 80,
  benignServers: [3, 5],
  // The servers the brief allowed (none used by sets v1-v4 or the tuning material).
  allowedRepos: [
    "microsoft/playwright-mcp",
    "makenotion/notion-mcp-server",
    "cloudflare/mcp-server-cloudflare",
    "browserbase/mcp-server-browserbase",
    "upstash/context7",
    "Shopify/dev-mcp",
    "pulumi/mcp-server",
    "docker/hub-mcp",
  ],
  earlier: ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "benign-extra", "benign-extra-2", "tuning-v5"],
});
