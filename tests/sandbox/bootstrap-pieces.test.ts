import { parse } from "@babel/parser";
import { describe, expect, it } from "vitest";
import { compactSource, guestBootstrapSource, guestPieces, PIECES_COMPILED_AHEAD } from "../../src/sandbox/guest/bootstrap-source.js";
import { installGuestGlobals } from "../../src/sandbox/guest/guest-bootstrap.js";
import { createGuestBase64, createGuestCodec } from "../../src/sandbox/guest/guest-codec.js";
import { createGuestDiagnostics } from "../../src/sandbox/guest/guest-diagnostics.js";
import { createGuestFormatter } from "../../src/sandbox/guest/guest-format.js";
import { createGuestModules } from "../../src/sandbox/guest/guest-modules.js";

/** The tokens of a function expression's source, comments and layout aside. */
function tokensOf(source: string): string[] {
  const file = parse(`(${source})`, { tokens: true, errorRecovery: false });
  return (file.tokens ?? []).flatMap((token) => {
    const { type, value } = token as { type: { label: string } | string; value?: unknown };
    const kind = typeof type === "string" ? type : type.label;
    return kind === "CommentLine" || kind === "CommentBlock" ? [] : [`${kind}:${String(value ?? "")}`];
  });
}

describe("the guest bootstrap's sources", () => {
  it("compacts a function's source by whole lines only: indentation, blank lines and comment lines go, code stays", () => {
    const source = [
      "function f(a) {",
      "  // a comment line",
      "  /** a block",
      "   * comment */",
      '  const url = "http://x"; // a trailing comment stays',
      "  /* leading */ return a + url;",
      "",
      "}",
    ].join("\n");
    expect(compactSource(source)).toBe(['function f(a) {', 'const url = "http://x"; // a trailing comment stays', "/* leading */ return a + url;", "}"].join("\n"));
  });

  // Whole-line compaction is only safe for code with no string or template literal spanning lines
  // (a line inside one could look like a comment): the tokens must come out the same.
  it.each([
    ["bootstrap", installGuestGlobals],
    ["modules", createGuestModules],
    ["codec", createGuestCodec],
    ["base64", createGuestBase64],
    ["format", createGuestFormatter],
    ["diagnostics", createGuestDiagnostics],
  ])("keeps every token of the %s source", (_name, fn) => {
    const original = fn.toString();
    const compacted = compactSource(original);
    expect(compacted.length).toBeLessThan(original.length);
    expect(tokensOf(compacted)).toEqual(tokensOf(original));
  });

  it("keeps what every sandbox compiles small: host modules, formatting and diagnostics are pieces", () => {
    // QuickJS compiles about 10 characters a microsecond in a fresh runtime, and every sandbox compiles
    // the bootstrap: this budget keeps it near 0.5 ms (it was 35,000 characters, ~2 ms, before the split).
    expect(guestBootstrapSource().length).toBeLessThan(5_000);
    const pieces = guestPieces();
    expect(Object.keys(pieces).sort()).toEqual(["base64", "diagnostics", "format", "modules", "tools"]);
    for (const name of PIECES_COMPILED_AHEAD) expect(pieces[name]).toBeDefined();
    // Each piece is one expression evaluating to its factory.
    for (const [name, source] of Object.entries(pieces)) expect(typeof (0, eval)(`"use strict";(${source})`), name).toBe("function");
    expect(guestBootstrapSource()).not.toContain("createGuestModules");
  });
});
