import { describe, expect, it } from "vitest";
import { textViews } from "../../../src/mcp/audit/normalise.js";
import { LATIN_VOCABULARY } from "../../../src/mcp/audit/intent/vocabulary-latin.js";
import { vocabularyPhrases } from "../../../src/mcp/audit/intent/vocabulary.js";
import { loadHalf } from "./intent-harness.js";

/**
 * The wave-8 vocabularies (src/mcp/audit/intent/vocabulary*.ts) run on the folded view of every string, English
 * included: a Latin-script word of another language that is also an English word reads English listings as that
 * language (Swedish "be" made "will be generated" a request for a password). The words that make up a signal —
 * negated telling, conversation, "all of it", verbs of handing over — must not occur in real English listings.
 * Person words ("user") and secrets ("password", "CVV") are shared on purpose, and Hinglish mixes in English by nature.
 */
const englishListings = (): string =>
  (["tuning", "benign-extra", "benign-extra-2"] as const)
    .flatMap((name) => loadHalf(name).benign.flatMap((s) => s.tools.map((t) => textViews(JSON.stringify([t.description, t.inputSchema])).folded)))
    .join("\n");

describe("the wave-8 vocabularies", () => {
  it("every phrase compiles, in the way the feature finder compiles it", () => {
    for (const [feature, phrases] of Object.entries(vocabularyPhrases())) {
      for (const source of phrases) expect(() => new RegExp(source.normalize("NFKC"), "u"), `${feature}: ${source.slice(0, 60)}`).not.toThrow();
    }
  });

  it("no other language's signal words occur in 600 real English tool listings", () => {
    const english = englishListings();
    const found: string[] = [];
    for (const [lang, v] of Object.entries(LATIN_VOCABULARY)) {
      if (lang === "en" || lang === "hinglish") continue;
      for (const key of ["negTell", "conversation", "whole", "supply", "cover", "steering", "redirect"] as const) {
        const source = v[key];
        if (source === undefined) continue;
        for (const m of english.matchAll(new RegExp(source, "gu"))) found.push(`${lang}.${key}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
