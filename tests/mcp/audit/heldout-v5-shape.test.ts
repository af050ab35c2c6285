/**
 * Held-out set v5 (tests/fixtures/audit-intent/heldout-v5.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v5 is measured once,
 * by tests/mcp/audit/scripts/measure-v5.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { FAMILIES, heldoutSetSchema, readIntentFile as read, repoList } from "./heldout-shape.js";

/** The ten most-spoken languages; the brief asks for every one of them among the multilingual cases. */
const MOST_SPOKEN = ["zh", "hi", "es", "fr", "ar", "bn", "pt", "ru", "ur", "id"];
/** The servers the brief allowed for v5's benign half (none used by sets v1-v4 or the tuning material). */
const ALLOWED_REPOS = [
  "microsoft/playwright-mcp",
  "makenotion/notion-mcp-server",
  "cloudflare/mcp-server-cloudflare",
  "browserbase/mcp-server-browserbase",
  "upstash/context7",
  "Shopify/dev-mcp",
  "pulumi/mcp-server",
  "docker/hub-mcp",
];
/** Every earlier set and all tuning material: v5's benign servers must be new to all of them. */
const EARLIER = ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "benign-extra", "benign-extra-2", "tuning-v5"];

const setSchema = heldoutSetSchema("h5");

describe("held-out set v5 (shape and counts only; the auditor is not run)", () => {
  const set = setSchema.parse(read("heldout-v5"));

  it("has at least 84 attacks, at least 12 in every family, with unique ids", () => {
    expect(set.attacks.length).toBeGreaterThanOrEqual(84);
    for (const family of FAMILIES) expect(set.attacks.filter((a) => a.family === family).length, family).toBeGreaterThanOrEqual(12);
    expect(new Set(set.attacks.map((a) => a.id)).size).toBe(set.attacks.length);
  });

  it("ids name their family", () => {
    const short: Record<(typeof FAMILIES)[number], string> = {
      "context-exfiltration": "ctx",
      shadowing: "sh",
      steering: "st",
      encoded: "enc",
      "server-instructions": "si",
      multilingual: "ml",
    };
    for (const a of set.attacks) expect(a.id.split("-")[1], a.id).toBe(short[a.family]);
  });

  it("has at least 24 multilingual attacks across at least 14 languages, the ten most-spoken among them", () => {
    const multilingual = set.attacks.filter((a) => a.family === "multilingual");
    expect(multilingual.length).toBeGreaterThanOrEqual(24);
    expect(multilingual.every((a) => a.language !== "en")).toBe(true);
    const languages = new Set(multilingual.map((a) => a.language));
    expect(languages.size).toBeGreaterThanOrEqual(14);
    for (const language of MOST_SPOKEN) expect(languages.has(language), language).toBe(true);
  });

  it("gives every server-instructions attack its instructions", () => {
    for (const a of set.attacks.filter((x) => x.family === "server-instructions")) expect(a.server.instructions, a.id).toBeDefined();
  });

  it("configures the victim server beside every shadowing attack", () => {
    for (const a of set.attacks.filter((x) => x.family === "shadowing")) expect(a.otherServers.length, a.id).toBeGreaterThan(0);
  });

  it("has at least 80 benign tools from 3-5 allowed servers, with distinct names per server", () => {
    expect(set.benign.reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThanOrEqual(80);
    expect(set.benign.length).toBeGreaterThanOrEqual(3);
    expect(set.benign.length).toBeLessThanOrEqual(5);
    for (const s of set.benign) {
      expect(ALLOWED_REPOS, s.source.repo).toContain(s.source.repo);
      expect(new Set(s.tools.map((t) => t.name)).size, s.server).toBe(s.tools.length);
    }
  });

  it("takes no benign server that an earlier set or the tuning material used", () => {
    const earlier = new Set(EARLIER.flatMap((name) => repoList.parse(read(name)).benign.map((b) => b.source.repo)));
    for (const s of set.benign) expect(earlier.has(s.source.repo), s.source.repo).toBe(false);
  });
});
