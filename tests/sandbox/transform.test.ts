import { describe, expect, it } from "vitest";
import { mapGuestStack, transformGuestSource, type WrappedSource } from "../../src/sandbox/guest/transform.js";

function wrapped(code: string): WrappedSource {
  const result = transformGuestSource(code);
  if (!result.ok) throw new Error(`unexpected syntax error: ${result.error.message}`);
  return result.source;
}

describe("transformGuestSource", () => {
  it("wraps the body in an async function opened on the user's first line", () => {
    const source = wrapped("return 1;");
    expect(source.code).toBe("(async function () {return 1;\n})");
    expect(source.firstLineShift).toBe("(async function () {".length);
  });

  it("keeps a trailing line comment from swallowing the closing brace", () => {
    expect(wrapped("return 1; // done").code.endsWith("// done\n})")).toBe(true);
  });

  it("rewrites each import form to require, in place", () => {
    const code = [
      'import a from "host:m";',
      'import { b, c as d, "e-f" as g } from "host:m";',
      'import * as ns from "host:n";',
      'import "host:o";',
      'import h, { i } from "host:p";',
      "return 1;",
    ].join("\n");
    expect(wrapped(code).code.split("\n")).toEqual([
      '(async function () {const a = require("host:m");',
      'const { b, c: d, "e-f": g } = require("host:m");',
      'const ns = require("host:n");',
      'require("host:o");',
      'const h = require("host:p"); const { i } = require("host:p");',
      "return 1;",
      "})",
    ]);
  });

  it("keeps line numbers when an import spans several lines", () => {
    const lines = wrapped('import {\n  a,\n  b,\n} from "host:m";\nthrow 1;').code.split("\n");
    expect(lines[4]).toBe("throw 1;");
  });

  it("drops a #! line", () => {
    expect(wrapped("#!/usr/bin/env mcpvm\nreturn 1;").code).toBe("(async function () {\nreturn 1;\n})");
  });

  it("reports syntax errors at the user's line and 1-based column", () => {
    expect(transformGuestSource("const a = 1;\nlet x = ;")).toEqual({
      ok: false,
      error: { message: "Unexpected token", line: 2, column: 9, snippet: "2 | let x = ;\n  |         ^" },
    });
  });

  it("refuses export with a hint to use return", () => {
    const result = transformGuestSource("const a = 1;\nexport const b = 2;");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ line: 2, column: 1 });
      expect(result.error.message).toContain("return");
    }
  });

  it("accepts top-level await and return in scripts and in modules", () => {
    expect(transformGuestSource("await 1; return 2;").ok).toBe(true);
    expect(transformGuestSource('import m from "host:m"; await 1; return 2;').ok).toBe(true);
  });
});

describe("mapGuestStack", () => {
  it("moves line-1 columns back by the wrapper's width and leaves other lines alone", () => {
    const source = wrapped("null.x");
    const shift = source.firstLineShift;
    const stack = `    at f (guest.js:1:${shift + 5})\n    at g (guest.js:2:7)\n    at h (other.js:1:${shift + 5})`;
    expect(mapGuestStack(stack, "guest.js", source)).toBe(
      `    at f (guest.js:1:5)\n    at g (guest.js:2:7)\n    at h (other.js:1:${shift + 5})`,
    );
  });
});
