/**
 * benign-multilingual.json (wave 18): real servers whose tools are written in Chinese, Japanese or Korean, copied verbatim
 * (tests/fixtures/audit-intent/README.md). Its shape, its counts, and how many of its tools the audit holds.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isFlagged, loadHalf, scoreBenign } from "./intent-harness.js";

// Each server's language (ISO 639-1), and the script its descriptions must be written in.
const LANGUAGE_OF: Readonly<Record<string, "ko" | "zh" | "ja">> = {
  "korean-law": "ko",
  xiaohongshu: "zh",
  "12306": "zh",
  dingtalk: "zh",
  freee: "ja",
  jgrants: "ja",
  "e-gov-laws": "ja",
  "kokkai-giji": "ja",
};
const SCRIPT: Readonly<Record<"ko" | "zh" | "ja", RegExp>> = {
  ko: /\p{Script=Hangul}/u,
  zh: /\p{Script=Han}/u,
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
};

const fileSchema = z.strictObject({
  attacks: z.array(z.unknown()).length(0),
  benign: z.array(
    z.strictObject({
      server: z.string().min(1),
      source: z.strictObject({ repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/), commit: z.string().regex(/^[0-9a-f]{40}$/), path: z.string().min(1) }),
      tools: z.array(
        z.looseObject({
          name: z.string().min(1),
          description: z.string().min(1),
          inputSchema: z.looseObject({ type: z.literal("object") }),
        }),
      ),
    }),
  ),
});

describe("benign-multilingual: real Chinese, Japanese and Korean servers", () => {
  const half = loadHalf("benign-multilingual");

  it("has the shape of the other benign sets, 146 tools from 8 servers, each written in its server's language", () => {
    fileSchema.parse(half);
    expect(half.benign.map((s) => s.server).sort()).toEqual(Object.keys(LANGUAGE_OF).sort());
    expect(half.benign.reduce((n, s) => n + s.tools.length, 0)).toBe(146);
    for (const s of half.benign) {
      const script = SCRIPT[LANGUAGE_OF[s.server] ?? "zh"];
      // freee's five HTTP-method tools are described as "freee API GET - service: …": their titles carry the language.
      const written = s.tools.filter((t) => script.test(t.description ?? "") || script.test(t.title ?? ""));
      expect(written.length, s.server).toBe(s.tools.length);
      expect(new Set(s.tools.map((t) => t.name)).size, s.server).toBe(s.tools.length);
    }
  });

  it("holds at most 0 of its 146 tools (1 when first measured, wave 18, before any change: jgrants' get_subsidy_detail)", () => {
    const held = scoreBenign(half).filter((b) => isFlagged(b.verdict)).map((b) => b.id);
    expect(held).toEqual([]);
  });
});
