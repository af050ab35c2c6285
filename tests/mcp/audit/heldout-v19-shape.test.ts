/**
 * Held-out set v19 (tests/fixtures/audit-intent/heldout-v19.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v19 was written blind
 * (wave 29) and is measured counts only; nobody tunes on its cases.
 */
import { describeHeldoutSet, describeQuietAttacks, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v19",
  prefix: "h19",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  minBenignTools: 119,
  benignServers: [15, 15],
  // The repositories chosen for v19; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "Dhravya/apple-mcp",
    "LucasHild/mcp-server-bigquery",
    "NightTrek/Software-planning-mcp",
    "QuantGeekDev/docker-mcp",
    "abhiz123/todoist-mcp-server",
    "datastax/astra-db-mcp",
    "epaproditus/google-workspace-mcp-server",
    "executeautomation/mcp-database-server",
    "ferrislucas/iterm-mcp",
    "isaacwasserman/mcp-snowflake-server",
    "kiliczsh/mcp-mongo-server",
    "pashpashpash/mcp-taskmanager",
    "rishikavikondala/mcp-server-aws",
    "sirmews/mcp-pinecone",
    "v-3/discordmcp",
  ],
  earlier: writtenBefore(19),
  englishElsewhere: true,
  noReusedDescriptions: true,
  genericDescriptions: [],
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  mostSpoken: false,
  oneLanguageEach: true,
});

describeQuietAttacks("heldout-v19", "h19", 20);
