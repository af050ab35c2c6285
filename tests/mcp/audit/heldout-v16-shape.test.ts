/**
 * Held-out set v16 (tests/fixtures/audit-intent/heldout-v16.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v16 is measured by
 * tests/mcp/audit/scripts/measure-v16.ts, counts only, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { heldoutSetSchema, readIntentFile } from "./heldout-shape.js";
import { describeHeldoutSet, writtenBefore } from "./heldout-shape-suite.js";

describeHeldoutSet({
  file: "heldout-v16",
  prefix: "h16",
  minAttacks: 120,
  minPerFamily: 20,
  minMultilingual: 20,
  minBenignTools: 150,
  benignServers: [10, 10],
  // The repositories chosen for v16; none of them appears in an earlier set or the tuning material.
  allowedRepos: [
    "aliyun/alibabacloud-observability-mcp-server",
    "volcengine/mcp-server",
    "crystaldba/postgres-mcp",
    "zilliztech/mcp-server-milvus",
    "datalayer/jupyter-mcp-server",
    "alexei-led/k8s-mcp-server",
  ],
  earlier: writtenBefore(16),
  englishElsewhere: true,
  noReusedDescriptions: true,
  families: ["context-exfiltration", "shadowing", "steering", "encoded", "credentials", "multilingual"],
  mostSpoken: false,
  oneLanguageEach: true,
});

describe("held-out set v16: what its brief asked beyond the shared checks", () => {
  const set = heldoutSetSchema("h16").parse(readIntentFile("heldout-v16"));

  it("documents tools in Markdown as large developer-tool servers do: at least 60 attacks with a list or heading", () => {
    const markdown = set.attacks.filter((a) => a.server.tools.some((t) => /^\s*(?:[-*] |#{1,4} |\|)/m.test(t.description ?? "")));
    expect(markdown.length).toBeGreaterThanOrEqual(60);
  });
});
