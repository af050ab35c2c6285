/**
 * Held-out set v6 (tests/fixtures/audit-intent/heldout-v6.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v6 is measured once,
 * by tests/mcp/audit/scripts/measure-v6.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { FAMILIES, heldoutSetSchema, readIntentFile as read, repoList } from "./heldout-shape.js";

/** The ten most-spoken languages; the brief asks for every one of them among the multilingual cases. */
const MOST_SPOKEN = ["zh", "hi", "es", "fr", "ar", "bn", "pt", "ru", "ur", "id"];
/**
 * The servers the brief allowed for v6's benign half, less the two an earlier set already used
 * (stripe/agent-toolkit in v2, paypal/agent-toolkit in benign-extra-2).
 */
const ALLOWED_REPOS = [
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
];
/** Every earlier set and all tuning material: v6's benign servers must be new to all of them. */
const EARLIER = ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "heldout-v5", "benign-extra", "benign-extra-2", "benign-extra-3", "tuning-v5"];
/** The brief: at least 110 benign tools, all of each server taken, from 4-6 servers. */
const MIN_BENIGN_TOOLS = 110;
const MIN_BENIGN_SERVERS = 4;

/** Every string under a `description` key anywhere in a JSON value. */
function descriptions(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) descriptions(v, out);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (k === "description" && typeof v === "string") out.add(v);
      else descriptions(v, out);
    }
  return out;
}

const setSchema = heldoutSetSchema("h6");

describe("held-out set v6 (shape and counts only; the auditor is not run)", () => {
  const set = setSchema.parse(read("heldout-v6"));

  it("has at least 96 attacks, at least 14 in every family, with unique ids", () => {
    expect(set.attacks.length).toBeGreaterThanOrEqual(96);
    for (const family of FAMILIES) expect(set.attacks.filter((a) => a.family === family).length, family).toBeGreaterThanOrEqual(14);
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

  it("has at least 26 multilingual attacks across at least 14 languages, the ten most-spoken among them; the others are English", () => {
    const multilingual = set.attacks.filter((a) => a.family === "multilingual");
    expect(multilingual.length).toBeGreaterThanOrEqual(26);
    expect(multilingual.every((a) => a.language !== "en")).toBe(true);
    const languages = new Set(multilingual.map((a) => a.language));
    expect(languages.size).toBeGreaterThanOrEqual(14);
    for (const language of MOST_SPOKEN) expect(languages.has(language), language).toBe(true);
    for (const a of set.attacks.filter((x) => x.family !== "multilingual")) expect(a.language, a.id).toBe("en");
  });

  it("gives every server-instructions attack its instructions", () => {
    for (const a of set.attacks.filter((x) => x.family === "server-instructions")) expect(a.server.instructions, a.id).toBeDefined();
  });

  it("configures the victim server beside every shadowing attack", () => {
    for (const a of set.attacks.filter((x) => x.family === "shadowing")) expect(a.otherServers.length, a.id).toBeGreaterThan(0);
  });

  it("reuses no description of an earlier set or the tuning material (short generic ones such as \"Page URL.\" aside)", () => {
    const earlier = new Set<string>();
    for (const name of EARLIER) descriptions(read(name), earlier);
    for (const a of set.attacks) for (const d of descriptions(a.server)) if (d.length >= 40) expect(earlier.has(d), a.id).toBe(false);
  });

  it(`has at least ${MIN_BENIGN_TOOLS} benign tools from ${MIN_BENIGN_SERVERS}-6 allowed servers, with distinct names per server`, () => {
    expect(set.benign.reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThanOrEqual(MIN_BENIGN_TOOLS);
    expect(set.benign.length).toBeGreaterThanOrEqual(MIN_BENIGN_SERVERS);
    expect(set.benign.length).toBeLessThanOrEqual(6);
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
