import { describe, expect, it } from "vitest";
import type { RunResult } from "../../../src/sandbox/types.js";
import { errorOf, run, valueOf, type EngineRef } from "./helpers.js";

function notesOf(result: RunResult): readonly string[] | undefined {
  valueOf(result);
  return result.ok ? result.notes : undefined;
}

/** Results JSON would silently turn into `{}` or drop are converted or explained, with where. */
export function resultTests(engine: EngineRef): void {
  describe("results that are not plain JSON", () => {
    it("returns a Map as an object of its entries, or as pairs when its keys are not all strings, and says so", async () => {
      const result = await run(engine(), 'return { byName: new Map([["a", 1], ["b c", 2]]), byId: new Map([[1, "one"]]) };');
      expect(valueOf(result)).toEqual({ byName: { a: 1, "b c": 2 }, byId: [[1, "one"]] });
      expect(notesOf(result)).toEqual([
        "result.byName was a Map: returned as an object of its entries",
        "result.byId was a Map: returned as [key, value] pairs (not all its keys are strings)",
      ]);
    });

    it("returns a Set as an array and an Error as {name, message}, nested ones too", async () => {
      const result = await run(engine(), 'return [new Set([1, 2]), { e: new TypeError("bad") }, new Map([["s", new Set(["x"])]])];');
      expect(valueOf(result)).toEqual([[1, 2], { e: { name: "TypeError", message: "bad" } }, { s: ["x"] }]);
      expect(notesOf(result)).toEqual([
        "result[0] was a Set: returned as an array",
        "result[1].e was an Error: returned as {name, message}",
        "result[2] was a Map: returned as an object of its entries",
        "result[2].s was a Set: returned as an array",
      ]);
    });

    it("says where functions and Symbols were left out, and what a top-level one means", async () => {
      const nested = await run(engine(), 'return { f() {}, list: [Symbol("s"), 1], n: 1 };');
      expect(valueOf(nested)).toEqual({ list: [null, 1], n: 1 });
      expect(notesOf(nested)).toEqual(["result.f is a function, which is not data: left out", "result.list[0] is a Symbol, which is not data: returned as null"]);
      const top = await run(engine(), "return async () => 1;");
      expect(valueOf(top)).toBeUndefined();
      expect(notesOf(top)).toEqual(["the script returned a function, which is not data, so it returned nothing (return the data itself, e.g. `return await f()`)"]);
    });

    it("adds no notes to plain data or to a script that returns nothing", async () => {
      expect(notesOf(await run(engine(), 'return { a: [1, "x", null], d: new Date(0), b: new Uint8Array([1]) };'))).toBeUndefined();
      expect(notesOf(await run(engine(), "const x = 1;"))).toBeUndefined();
    });

    it("caps the notes for a result with many conversions", async () => {
      const notes = notesOf(await run(engine(), "return Array.from({ length: 40 }, () => new Set());")) ?? [];
      expect(notes).toHaveLength(6);
      expect(notes[5]).toBe("… and 35 more like these");
    });
  });

  describe("results that cannot be returned", () => {
    it("names the path of a BigInt and says to use String()", async () => {
      const error = errorOf(await run(engine(), "return { totals: [{ sum: 10n }] };"), "RESULT_NOT_SERIALIZABLE");
      expect(error.message).toContain("result.totals[0].sum is a BigInt (10n), which JSON cannot carry: return String(value) instead");
    });

    it("names both ends of a cycle, also one through a Map", async () => {
      const plain = errorOf(await run(engine(), "const a = { b: { c: {} } }; a.b.c.back = a.b; return a;"), "RESULT_NOT_SERIALIZABLE");
      expect(plain.message).toContain("result.b.c.back refers back to result.b (a cycle)");
      const throughMap = errorOf(await run(engine(), 'const m = new Map(); m.set("me", m); return { m };'), "RESULT_NOT_SERIALIZABLE");
      expect(throughMap.message).toContain("result.m.me refers back to result.m (a cycle)");
    });
  });
}
