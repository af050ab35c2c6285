import { describe, expect, it } from "vitest";
import { LEXICON } from "../../../src/mcp/audit/intent/lexicon.js";
import { LiteralIndex } from "../../../src/mcp/audit/literal-index.js";
import { textViews } from "../../../src/mcp/audit/normalise.js";
import { requiredLiterals } from "../../../src/mcp/audit/regex-literals.js";
import { loadHalf, type HalfName } from "./intent-harness.js";

describe("requiredLiterals", () => {
  it("reads the words a phrase cannot match without", () => {
    expect(requiredLiterals(/\bsend (?:the|your) password\b/u)?.sort()).toEqual(["send the password", "send your password"]);
    expect(requiredLiterals(/\b(?:ignore|forget) (?:\w+ )?instructions\b/u)).toEqual(["instructions"]);
    // Optional letters and small classes are spelled out; the union of alternatives is kept.
    expect(requiredLiterals(/tokens?|ke[yj]/u)?.sort()).toEqual(["kej", "key", "token", "tokens"]);
    expect(requiredLiterals(/(?<!\p{L})пароль(?!\p{L})/u)).toEqual(["пароль"]);
    expect(requiredLiterals(/a\.b\u0041\x42\n/u)).toEqual(["a.bAB\n"]);
  });

  it("tells nothing when a part of the pattern could match without any literal", () => {
    for (const pattern of [/\w+\d/u, /(?:abc)?\d/u, /abc|\d/u, /ABC/i, /(a)\1/u, /[^abc]x?/u, /.{3}/u, /[a-z]+/u, /a*/u]) {
      expect(requiredLiterals(pattern), pattern.source).toBeUndefined();
    }
  });
});

// Every string of the intent sets' tools (their names, descriptions and parameters) and servers' instructions.
function strings(value: unknown, out: string[]): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) strings(v, out);
  return out;
}

describe("LiteralIndex", () => {
  const patterns = Object.values(LEXICON)
    .flat()
    .map((source) => new RegExp(source.normalize("NFKC"), "u"));
  const index = new LiteralIndex(patterns);

  // One test per set, so no single test holds the worker for long.
  const halves: HalfName[] = ["tuning", "heldout-v10", "tuning-v5", "benign-extra", "benign-extra-5"];
  for (const half of halves) {
    it(`never leaves out a phrase of the intent lexicon that matches a view of a string in ${half}`, () => {
      const texts = [...new Set(strings(loadHalf(half), []))];
      let matches = 0;
      let skipped = 0;
      for (const text of texts) {
        for (const view of Object.values(textViews(text))) {
          const candidates = index.candidates(view);
          patterns.forEach((pattern, i) => {
            if (pattern.test(view)) {
              matches += 1;
              expect(candidates[i], `${pattern.source.slice(0, 80)} on ${view.slice(0, 80)}`).toBe(1);
            } else if (candidates[i] === 0) skipped += 1;
          });
        }
      }
      // The set does exercise the lexicon, and most patterns are left out of most texts.
      expect(matches).toBeGreaterThan(20);
      expect(skipped / (texts.length * 2 * patterns.length)).toBeGreaterThan(0.9);
    }, 60_000);
  }

  it("leaves out all but a few phrases for file names and paths", () => {
    for (const text of ["src/mcp/audit/transformed.ts", "/home/ada/projects/mcpvm/src/index/server_1.json", "report-2026-11-27.pdf"]) {
      expect(Array.from(index.candidates(textViews(text).folded)).reduce((a, b) => a + b, 0), text).toBeLessThanOrEqual(6);
    }
  });
});

describe("the shared literal pass", () => {
  // Patterns of several shapes: literals of one, two and many characters, an alternation, and none at all (`i` flag).
  const first = new LiteralIndex([/\bsend (?:the|your) password\b/u, /a/u, /\bgo\b/u, /[a-z]+\d/u, /ignore previous/i]);
  const second = new LiteralIndex([/\bpassword\b/u, /\bxn--/u, /zq/u]);
  const texts = ["send your password now", "a", "go", "", "nothing here", "xn--gthub-zsa.com", "Ignore Previous", "zq zq zq", "sen", "пароль send the password"];
  const wanted = (patterns: readonly RegExp[], text: string): number[] =>
    patterns.map((pattern) => {
      const literals = requiredLiterals(pattern);
      // Literals are filed by their first six characters: a text holding those is a candidate.
      return literals === undefined || literals.some((literal) => text.includes(literal.slice(0, 6))) ? 1 : 0;
    });

  it("answers each index as if it had its own pass, whichever index asks first", () => {
    const firstPatterns = [/\bsend (?:the|your) password\b/u, /a/u, /\bgo\b/u, /[a-z]+\d/u, /ignore previous/i];
    const secondPatterns = [/\bpassword\b/u, /\bxn--/u, /zq/u];
    for (const text of texts) {
      // Alternate which index asks first, so the remembered pass is the other's as often as its own.
      let a: ArrayLike<number>;
      let b: ArrayLike<number>;
      if (text.length % 2 === 0) {
        a = first.candidates(text);
        b = second.candidates(text);
      } else {
        b = second.candidates(text);
        a = first.candidates(text);
      }
      expect(Array.from(a), text).toEqual(wanted(firstPatterns, text));
      expect(Array.from(b), text).toEqual(wanted(secondPatterns, text));
    }
  });

  it("lists, in ascending order, exactly the patterns candidates marks, for one text or the union of several", () => {
    for (const text of texts) {
      const marked = Array.from(first.candidates(text)).flatMap((bit, i) => (bit === 1 ? [i] : []));
      expect(first.listed(text), text).toEqual(marked);
      marked.forEach((_, i) => expect(first.has(text, i)).toBe(first.candidates(text)[i] === 1));
    }
    const union = [...new Set([...first.listed("a"), ...first.listed("go")])].sort((x, y) => x - y);
    expect(first.listed("a", "go")).toEqual(union);
  });

  it("answers for an index filed after a text was already passed", () => {
    const text = "send your password now";
    expect(first.has(text, 0)).toBe(true);
    const later = new LiteralIndex([/\bnow\b/u, /\bnever\b/u]);
    expect(Array.from(later.candidates(text))).toEqual([1, 0]);
    expect(first.has(text, 0)).toBe(true);
  });

  it("marks every pattern a candidate past 4,096 characters, as it did before the pass was shared", () => {
    const long = "x".repeat(5000);
    expect(Array.from(second.candidates(long))).toEqual([1, 1, 1]);
    expect(second.listed(long)).toEqual([0, 1, 2]);
  });
});
