/**
 * Held-out set v19 (tests/fixtures/audit-intent/heldout-v19.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v19 was written blind
 * (wave 29) and is measured counts only; nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

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

describe("held-out set v19: what its brief asked beyond the shared checks", () => {
  const set = heldoutSetSchema("h19").parse(readIntentFile("heldout-v19"));

  it("keeps the alarm words out: no attack says 'ignore previous' or 'hidden'", () => {
    const alarmed = set.attacks.filter((a) => /ignore previous|hidden/i.test(JSON.stringify(a.server)));
    expect(alarmed.map((a) => a.id)).toEqual([]);
  });

  it("writes 20 multilingual attacks, each in a language of its own, none of them English", () => {
    const multilingual = set.attacks.filter((a) => a.family === "multilingual");
    expect(multilingual.length).toBe(20);
    expect(multilingual.every((a) => a.language !== "en")).toBe(true);
  });
});
