/**
 * Held-out set v5 (tests/fixtures/audit-intent/heldout-v5.json) has the shape the intent harness
 * loads and the counts its brief promised. This test never runs the auditor: v5 is measured once,
 * by tests/mcp/audit/scripts/measure-v5.ts, and nobody tunes on its cases.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "audit-intent");
const read = (name: string): unknown => JSON.parse(readFileSync(path.join(dir, `${name}.json`), "utf8"));

const FAMILIES = ["context-exfiltration", "shadowing", "steering", "encoded", "server-instructions", "multilingual"] as const;
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

const jsonSchemaObject = z.looseObject({ type: z.literal("object"), properties: z.record(z.string(), z.unknown()).optional() });
const toolSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: jsonSchemaObject,
  outputSchema: jsonSchemaObject.optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});
const setSchema = z.strictObject({
  about: z.string().min(1),
  attacks: z.array(
    z.strictObject({
      id: z.string().regex(/^h5-(ctx|sh|st|enc|si|ml)-\d{2}$/),
      family: z.enum(FAMILIES),
      language: z.string().regex(/^[a-z]{2}$/),
      server: z.strictObject({ name: z.string().min(1), instructions: z.string().min(1).optional(), tools: z.array(toolSchema).min(1) }),
      otherServers: z.array(z.strictObject({ name: z.string().min(1), toolNames: z.array(z.string().min(1)).min(1) })),
    }),
  ),
  benign: z.array(
    z.strictObject({
      server: z.string().min(1),
      source: z.strictObject({ repo: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/), path: z.string().min(1) }),
      tools: z.array(toolSchema).min(1),
    }),
  ),
});
const repoList = z.object({ benign: z.array(z.object({ source: z.object({ repo: z.string() }) })).default([]) });

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
