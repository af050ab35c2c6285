import { describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { createQuickJsInlineEngine } from "../../src/sandbox/engines/quickjs-inline.js";
import { wrapPlainScript } from "../../src/sandbox/guest/plain-script.js";
import { transformGuestSource } from "../../src/sandbox/guest/transform.js";

/**
 * The scan that lets a script skip the parser: whenever it answers, the parser's transform gives the
 * very same wrapped source; whenever it is unsure, it says so and the parser decides.
 */

const PLAIN = [
  "return 1",
  "return 1 + 1;",
  'const m = require("host:mcp-memory");\nconst graph = m.read_graph({});\nreturn graph.entities.length;',
  "// a comment with a } brace and a ) paren\nreturn [1, 2, { a: (3) }];",
  "/* block comment ( [ { */ return 'x'",
  "const s = \"quote \\\" and } and ) inside\"; return s;",
  "const s = 'line \\\ncontinued'; return s;",
  "await Promise.resolve(1); return { ok: true };",
  "let total = 0;\nfor (const n of [1, 2, 3]) { total += n; }\nreturn total;",
  "return 1 // trailing comment",
  "const o = { a: 1 }; return o?.a ?? 2;",
  "class A { #x = 1; get x() { return this.#x; } } return new A().x;",
  "",
];

const UNSURE = [
  'import m from "host:m"; return m;',
  'const m = await import("host:m");',
  "export const a = 1;",
  "#!/usr/bin/env mcpvm\nreturn 1",
  "return new.target",
  "return 4 / 2",
  "return /x}/.test('x')",
  "return `template ${1}`",
  "const \\u0061 = 1; return a;",
  "x = 1 <!-- html comment\nreturn x",
  "return 1 }); (async function () {",
  "}); globalThis.escaped = 1; (async function () {",
  "return (1",
  "return [1)",
  "const s = 'unterminated\nreturn s",
  "/* unterminated comment",
  'const important = 1; return important;',
];

describe("wrapPlainScript", () => {
  it("wraps a script that needs no rewriting exactly as the parser's transform does", () => {
    for (const code of PLAIN) {
      const plain = wrapPlainScript(code);
      const parsed = transformGuestSource(code);
      expect(plain, code).toBeDefined();
      expect(parsed.ok, code).toBe(true);
      if (parsed.ok) expect(plain, code).toEqual(parsed.source);
    }
  });

  it("leaves to the parser whatever it cannot be sure of: imports, exports, regular expressions, templates, escapes, unbalanced brackets, a way out of the wrapper", () => {
    for (const code of UNSURE) expect(wrapPlainScript(code), code).toBeUndefined();
  });

  it("lets through scripts the parser refuses only when they cannot leave the wrapper (QuickJS then refuses them too, and the parser's error is reported)", () => {
    // Balanced and free of anything it refuses, but not JavaScript: QuickJS's compile fails and
    // run-admission's settleRun reports the parser's own error (tests/sandbox/conformance/guest-errors.ts).
    for (const code of ["let x = ;", "const c = a +* b;", "const x: number = 1;"]) {
      expect(wrapPlainScript(code), code).toBeDefined();
      expect(transformGuestSource(code).ok, code).toBe(false);
    }
  });
});

describe("a script that skipped the parser, run on both QuickJS engines", () => {
  // Each script run as it is and with a last line that sends it through the parser (the scan refuses
  // any text `import`): the two results must be the same, whichever of the parser and QuickJS refuses it.
  const SCRIPTS = [
    "return [1, 2, 3].map((n) => n * 2);",
    "let x = ;",
    "const a = 1;\nconst b = 2;\nconst c = a +* b;",
    "let await = 1; return await;",
    "var o = { __proto__: 1, __proto__: 2 }; return 1;",
    "const x: number = 1;\nreturn x;",
    // The parser accepts this; QuickJS does not know `using` declarations: its own SyntaxError stands.
    "using x = null; return 1;",
  ];
  const FORCE_PARSER = "\n// import";

  for (const [kind, create] of [
    ["quickjs", () => createQuickJsEngine({ warmWorkers: 1, maxWorkers: 2 })],
    ["quickjs-inline", () => createQuickJsInlineEngine({ maxInstances: 2 })],
  ] as const) {
    it(`${kind}: gives the same result as the parsed script`, async () => {
      const engine = await create();
      try {
        for (const code of SCRIPTS) {
          expect(wrapPlainScript(code), code).toBeDefined();
          expect(wrapPlainScript(code + FORCE_PARSER), code).toBeUndefined();
          const [plain, parsed] = [await engine.run({ code, filename: "s.js" }), await engine.run({ code: code + FORCE_PARSER, filename: "s.js" })];
          if (plain.ok || parsed.ok) {
            expect(plain.ok && parsed.ok, code).toBe(true);
            if (plain.ok && parsed.ok) expect(plain.value, code).toEqual(parsed.value);
            continue;
          }
          expect(plain.error, code).toEqual(parsed.error);
          // A refusal by the parser is a refusal before the run, as it is for a parsed script.
          expect(plain.stats.hostCalls, code).toBe(parsed.stats.hostCalls);
          expect(plain.stats.wallMs === 0, code).toBe(parsed.stats.wallMs === 0);
        }
      } finally {
        await engine.dispose();
      }
    }, 60_000);
  }
});
