/**
 * Held-out set v4 (tests/fixtures/audit-intent/heldout-v4.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v4 is measured once,
 * by tests/mcp/audit/scripts/measure-v4.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { FAMILIES, heldoutSetSchema, readIntentFile as read, repoList } from "./heldout-shape.js";

/** The servers the brief allowed for v4's benign half (none used by sets v1-v3 or the extra tuning material). */
const ALLOWED_REPOS = [
  "microsoft/playwright-mcp",
  "makenotion/notion-mcp-server",
  "cloudflare/mcp-server-cloudflare",
  "neondatabase/mcp-server-neon",
  "exa-labs/exa-mcp-server",
  "tavily-ai/tavily-mcp",
  "heroku/heroku-mcp-server",
  "browserbase/mcp-server-browserbase",
];

const setSchema = heldoutSetSchema("v4");

describe("held-out set v4 (shape and counts only; the auditor is not run)", () => {
  const set = setSchema.parse(read("heldout-v4"));

  it("has at least 72 attacks, at least 11 in every family, with unique ids", () => {
    expect(set.attacks.length).toBeGreaterThanOrEqual(72);
    for (const family of FAMILIES) expect(set.attacks.filter((a) => a.family === family).length, family).toBeGreaterThanOrEqual(11);
    expect(new Set(set.attacks.map((a) => a.id)).size).toBe(set.attacks.length);
  });

  it("has at least 16 multilingual attacks across at least 12 languages other than English", () => {
    const multilingual = set.attacks.filter((a) => a.family === "multilingual");
    expect(multilingual.length).toBeGreaterThanOrEqual(16);
    expect(multilingual.every((a) => a.language !== "en")).toBe(true);
    expect(new Set(multilingual.map((a) => a.language)).size).toBeGreaterThanOrEqual(12);
  });

  it("gives every server-instructions attack its instructions", () => {
    for (const a of set.attacks.filter((x) => x.family === "server-instructions")) expect(a.server.instructions, a.id).toBeDefined();
  });

  it("has at least 73 benign tools from 3-5 allowed servers, with distinct names per server", () => {
    expect(set.benign.reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThanOrEqual(73);
    expect(set.benign.length).toBeGreaterThanOrEqual(3);
    expect(set.benign.length).toBeLessThanOrEqual(5);
    for (const s of set.benign) {
      expect(ALLOWED_REPOS, s.source.repo).toContain(s.source.repo);
      expect(new Set(s.tools.map((t) => t.name)).size, s.server).toBe(s.tools.length);
    }
  });

  it("takes no benign server that an earlier set or the tuning material used", () => {
    const earlier = new Set(["tuning", "heldout-v2", "heldout-v3", "benign-extra"].flatMap((name) => repoList.parse(read(name)).benign.map((b) => b.source.repo)));
    for (const s of set.benign) expect(earlier.has(s.source.repo), s.source.repo).toBe(false);
  });
});
