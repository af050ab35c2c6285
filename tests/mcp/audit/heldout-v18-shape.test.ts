/**
 * Held-out set v18 (tests/fixtures/audit-intent/heldout-v18.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v18 is measured by
 * tests/mcp/audit/scripts/measure-v18.ts, counts only, and nobody tunes on its cases.
 */
import { describeHeldoutSet, describeQuietAttacks, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v18",
  prefix: "h18",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  minBenignTools: 150,
  benignServers: [16, 16],
  // The repositories chosen for v18; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "DMontgomery40/mcp-canvas-lms",
    "GongRzhe/TRAVEL-PLANNER-MCP-Server",
    "HenryHaoson/Yuque-MCP-Server",
    "Laksh-star/mcp-server-tmdb",
    "baranwang/mcp-trends-hub",
    "freestylefly/mcp-server-weread",
    "kajirita2002/esa-mcp-server",
    "mzxrai/mcp-webresearch",
    "openbnb-org/mcp-server-airbnb",
    "peancor/moodle-mcp-server",
    "pskill9/hn-server",
    "r-huijts/rijksmuseum-mcp",
    "sunsetcoder/flightradar24-mcp-server",
    "yamanoku/connpass-user-mcp-server",
    "zaiwork/mcp",
    "zcaceres/markdownify-mcp",
  ],
  earlier: writtenBefore(18),
  englishElsewhere: true,
  noReusedDescriptions: true,
  genericDescriptions: [],
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  mostSpoken: false,
  oneLanguageEach: true,
});

describeQuietAttacks("heldout-v18", "h18", 21);
