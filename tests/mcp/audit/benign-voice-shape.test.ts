/**
 * The shape of benign-voice.json (wave 16): honest tools written by hand in the voice of our own attack sets, for
 * fitting. Only the file is checked here — its shape, its counts and that its text is its own; the auditor is never
 * run on it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { descriptionsIn } from "./heldout-shape.js";
import { intentSetDir, loadHalf } from "./intent-harness.js";

const FILE = "benign-voice.json";

// The servers written in another language than English, by language (ISO 639-1). Every other server is English.
const LANGUAGE_OF: Readonly<Record<string, string>> = {
  facturita: "es",
  "docuflow-es": "es",
  terminfix: "de",
  "devtools-de": "de",
  paieclair: "fr",
  pixrapido: "pt",
  "keihi-navi": "ja",
  "jiyi-biji": "zh",
  vykatka: "ru",
  viaggiofacile: "it",
  "cartella-clinica-it": "it",
  "talkbox-kr": "ko",
  "kasa-takip": "tr",
  "catatan-rapat": "id",
  "swasthya-saathi": "hi",
  "amin-wallet": "ar",
};

const schemaObject = z.looseObject({
  type: z.literal("object"),
  properties: z.record(z.string(), z.looseObject({ description: z.string().min(1) })),
  required: z.array(z.string()).optional(),
});
const fileSchema = z.strictObject({
  note: z.string().min(1),
  attacks: z.array(z.unknown()).length(0),
  benign: z.array(
    z.strictObject({
      server: z.string().regex(/^[a-z0-9-]+$/),
      source: z.strictObject({ repo: z.literal("(written for wave 16: voice-train)"), commit: z.literal(""), path: z.literal("") }),
      tools: z
        .array(
          z.strictObject({
            name: z.string().regex(/^[a-z0-9]+([_-][a-z0-9]+)*$/),
            description: z.string().min(20),
            inputSchema: schemaObject,
            annotations: z.record(z.string(), z.unknown()).optional(),
          }),
        )
        .min(4)
        .max(15),
    }),
  ),
});

// Words nearly every English sentence here carries, and that none of the other languages' sentences should.
const ENGLISH_WORD = /\b(the|and|of|to|or|by|is|it|you|your|with|this|for|from)\b/i;

describe("benign-voice.json", () => {
  const raw: unknown = JSON.parse(readFileSync(path.join(intentSetDir, FILE), "utf8"));
  const half = loadHalf("benign-voice");

  it("parses with the harness loader and matches the benign-set shape", () => {
    expect(() => fileSchema.parse(raw)).not.toThrow();
    expect(half.attacks).toEqual([]);
    for (const server of half.benign) for (const tool of server.tools) expect(tool.inputSchema.type).toBe("object");
  });

  it("holds 60 fictional servers and 389 tools, 74 of them in 13 other languages than English", () => {
    const tools = half.benign.flatMap((s) => s.tools);
    const foreign = half.benign.filter((s) => LANGUAGE_OF[s.server] !== undefined);
    expect(half.benign.length).toBe(60);
    expect(tools.length).toBe(389);
    expect(foreign.map((s) => s.server).sort()).toEqual(Object.keys(LANGUAGE_OF).sort());
    expect(foreign.reduce((n, s) => n + s.tools.length, 0)).toBe(74);
    expect(new Set(Object.values(LANGUAGE_OF)).size).toBe(13);
  });

  it("writes the other languages' servers without English sentences, and the English ones in English", () => {
    const misplaced = half.benign.flatMap((server) =>
      server.tools
        .filter((tool) => ENGLISH_WORD.test(tool.description ?? "") === (LANGUAGE_OF[server.server] !== undefined))
        .map((tool) => `${server.server}/${tool.name}`),
    );
    expect(misplaced).toEqual([]);
  });

  it("names each server once and each tool once within its server", () => {
    const servers = half.benign.map((s) => s.server);
    expect(new Set(servers).size).toBe(servers.length);
    for (const server of half.benign) {
      const names = server.tools.map((t) => t.name);
      expect({ server: server.server, duplicates: names.filter((n, i) => names.indexOf(n) !== i) }).toEqual({ server: server.server, duplicates: [] });
    }
  });

  it("shares no description of 40 characters or more with itself or any other set file", () => {
    const mine = descriptionsIn(raw).filter((d) => d.length >= 40);
    expect(mine.filter((d, i) => mine.indexOf(d) !== i)).toEqual([]);
    const others = new Set<string>();
    for (const file of readdirSync(intentSetDir).filter((f) => f.endsWith(".json") && f !== FILE)) {
      for (const d of descriptionsIn(JSON.parse(readFileSync(path.join(intentSetDir, file), "utf8")))) others.add(d);
    }
    expect(others.size).toBeGreaterThan(1000);
    expect(mine.filter((d) => others.has(d))).toEqual([]);
  });
});
