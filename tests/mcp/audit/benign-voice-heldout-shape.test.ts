/**
 * The shape of benign-voice-heldout.json: honest tools written in the attacks' voice and kept apart for one
 * measurement. Only the file is checked here (parse, counts, distinctness from every other set); nothing runs the
 * auditor, so the set stays unseen by it until it is measured.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { descriptionsIn } from "./heldout-shape.js";
import { intentSetDir, loadHalf } from "./intent-harness.js";

const FILE = "benign-voice-heldout.json";
const raw: unknown = JSON.parse(readFileSync(path.join(intentSetDir, FILE), "utf8"));

const propertySchema: z.ZodType = z.lazy(() =>
  z.looseObject({ description: z.string().optional(), properties: z.record(z.string(), propertySchema).optional(), items: propertySchema.optional() }),
);
const toolSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/),
  description: z.string().min(20),
  inputSchema: z.strictObject({
    type: z.literal("object"),
    properties: z.record(z.string(), propertySchema),
    required: z.array(z.string()),
  }),
  annotations: z.record(z.string(), z.union([z.boolean(), z.string()])).optional(),
});
const setSchema = z.strictObject({
  note: z.string().min(1),
  attacks: z.array(z.never()).length(0),
  benign: z.array(
    z.strictObject({
      server: z.string().regex(/^[a-z][a-z0-9-]*$/),
      language: z.string().regex(/^[a-z]{2}$/),
      topic: z.string().min(1),
      source: z.strictObject({ repo: z.literal("(written for wave 16: voice-heldout)"), commit: z.literal(""), path: z.literal("") }),
      tools: z.array(toolSchema).min(4).max(15),
    }),
  ),
});
const set = setSchema.parse(raw);

/** Every string anywhere in a JSON value: other sets keep text in descriptions, instructions and notes alike. */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (value !== null && typeof value === "object") for (const inner of Object.values(value)) stringsIn(inner, out);
  return out;
}

const tools = set.benign.flatMap((s) => s.tools.map((tool) => ({ server: s.server, language: s.language, tool })));

describe("benign-voice-heldout.json shape", () => {
  it("loads through the intent harness as benign-only material", () => {
    const half = loadHalf("benign-voice-heldout");
    expect(half.attacks).toEqual([]);
    expect(half.benign.map((s) => s.server)).toEqual(set.benign.map((s) => s.server));
    expect(half.benign.flatMap((s) => s.tools.map((t) => t.name))).toEqual(tools.map((t) => t.tool.name));
  });

  it("holds 263 tools across 40 servers, 45 of them documented in ten languages other than English", () => {
    // Exact counts: a held-out set must not change after it was committed, so any edit shows up here.
    expect(set.benign).toHaveLength(40);
    expect(tools).toHaveLength(263);
    const nonEnglish = tools.filter((t) => t.language !== "en");
    expect(nonEnglish).toHaveLength(45);
    expect(new Set(nonEnglish.map((t) => t.language)).size).toBe(10);
    // The brief's floor (≥ 170 tools, ≥ 18 servers) and a non-English share near 15 %.
    expect(tools.length).toBeGreaterThanOrEqual(170);
    expect(set.benign.length).toBeGreaterThanOrEqual(18);
    expect(nonEnglish.length / tools.length).toBeGreaterThan(0.1);
    expect(nonEnglish.length / tools.length).toBeLessThan(0.25);
  });

  it("names each server once and each tool once within its server", () => {
    expect(new Set(set.benign.map((s) => s.server)).size).toBe(set.benign.length);
    const keys = tools.map((t) => `${t.server}/${t.tool.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("lists only declared properties as required", () => {
    const undeclared = tools.flatMap((t) =>
      t.tool.inputSchema.required.filter((name) => !(name in t.tool.inputSchema.properties)).map((name) => `${t.server}/${t.tool.name}.${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it("shares no description of 40 characters or more with another set file, nor repeats one inside itself", () => {
    const others = new Set<string>();
    for (const name of readdirSync(intentSetDir).filter((f) => f.endsWith(".json") && f !== FILE)) {
      const parsed: unknown = JSON.parse(readFileSync(path.join(intentSetDir, name), "utf8"));
      for (const text of stringsIn(parsed)) if (text.trim().length >= 40) others.add(text.trim());
    }
    expect(others.size).toBeGreaterThan(1000);
    const own = descriptionsIn(set.benign)
      .map((d) => d.trim())
      .filter((d) => d.length >= 40);
    expect(own.filter((d) => others.has(d))).toEqual([]);
    expect(own.length - new Set(own).size).toBe(0);
  });
});
