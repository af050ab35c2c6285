import { describe, expect, it } from "vitest";
import { FifoCache } from "../../../src/mcp/audit/fifo-cache.js";
import { eachMatch, execAll } from "../../../src/mcp/audit/match.js";

describe("eachMatch", () => {
  const cases: ReadonlyArray<readonly [RegExp, string]> = [
    [/[A-Za-z0-9+/_-]{4,}/g, "abcd efgh-ijkl mn op/qrst"],
    // Empty matches move on by one character, by a whole code point under the u flag, as matchAll does.
    [/x*/g, "axxbx"],
    [/x*/gu, "a😀xb"],
    [/(?:[.-]{1,6}\s){2,}[.-]{1,6}/gu, ".- -... -.-. ... --- ..."],
  ];

  it("visits the matches matchAll gives, in order, and leaves the pattern as it found it", () => {
    for (const [pattern, text] of cases) {
      const seen: string[] = [];
      eachMatch(pattern, text, (m) => {
        seen.push(`${m.index}:${m[0]}`);
        return false;
      });
      expect(seen, pattern.source).toEqual([...text.matchAll(new RegExp(pattern.source, pattern.flags))].map((m) => `${m.index}:${m[0]}`));
      expect(pattern.lastIndex).toBe(0);
    }
  });

  it("stops when the visitor says so, even by throwing, with lastIndex reset", () => {
    const pattern = /\d+/g;
    const seen: string[] = [];
    eachMatch(pattern, "1 22 333 4444", (m) => {
      seen.push(m[0]);
      return seen.length === 2;
    });
    expect(seen).toEqual(["1", "22"]);
    expect(pattern.lastIndex).toBe(0);
    expect(() =>
      eachMatch(pattern, "5 66", () => {
        throw new Error("stop");
      }),
    ).toThrow("stop");
    expect(pattern.lastIndex).toBe(0);
    expect(execAll(pattern, "7 88 999", 2).map((m) => m[0])).toEqual(["7", "88"]);
  });
});

describe("FifoCache", () => {
  it("forgets the oldest entry first once full, whatever was read since", () => {
    const cache = new FifoCache<number>(3);
    for (const [key, value] of [["a", 1], ["b", 2], ["c", 3]] as const) cache.set(key, value);
    expect(cache.get("a")).toBe(1);
    cache.set("d", 4);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual([undefined, 2, 3, 4]);
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, i);
    expect([cache.get("k6"), cache.get("k7"), cache.get("k8"), cache.get("k9")]).toEqual([undefined, 7, 8, 9]);
  });
});
