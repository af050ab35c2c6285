import { describe, expect, it } from "vitest";
import { createGuestDiagnostics } from "../../src/sandbox/guest/guest-diagnostics.js";
import { explainParseError, sourceSnippet } from "../../src/sandbox/guest/syntax-error.js";
import { closestMatches } from "../../src/util/suggest.js";

// The guest diagnostics run inside the sandbox in production; they are plain JavaScript, so their
// logic is checked here directly (the conformance suite checks them through every engine).
const diagnostics = createGuestDiagnostics();

describe("guest did-you-mean", () => {
  const tools = ["read_graph", "search_nodes", "open_nodes", "create_entities", "create_relations", "delete_entities", "get-sum", "echo"];

  it.each([
    ["read_grap", tools],
    ["READ_GRAPH", tools],
    ["search", tools],
    ["open_node", tools],
    ["create_entity", tools],
    ["ehco", tools],
    ["xyzzy", tools],
    ["get-summ", tools],
    ["a", ["b", "ab", "abc"]],
    ["mpc", ["mcp", "run"]],
    ["raed_graph", tools],
  ])("suggests what src/util/suggest.ts suggests for %s", (input, candidates) => {
    const expected = closestMatches(input, candidates);
    const said = diagnostics.didYouMean(input, candidates);
    if (expected.length === 0) expect(said).toBe("");
    else for (const name of expected) expect(said).toContain(name);
    expect(said === "" ? [] : said.replace(/^; did you mean /, "").replace(/\?$/, "").split(/, | or /)).toEqual(expected);
  });

  it("words a missing member with a suggestion, or the list, quoting and cutting the guest's text", () => {
    expect(diagnostics.missingMember('server "memory"', "tool", "read_grap", tools)).toBe('server "memory" has no tool "read_grap"; did you mean read_graph?');
    expect(diagnostics.missingMember("host:m", "function", "zzz", ["a", "b"])).toBe('host:m has no function "zzz" (its functions: a, b)');
    expect(diagnostics.missingMember("host:m", "function", "zzz", [])).toBe('host:m has no function "zzz" (it has no functions)');
    const long = diagnostics.missingMember("host:m", "function", "q\n".repeat(100), ["a"]);
    expect(long).toContain('"q\\nq\\n');
    expect(long.length).toBeLessThan(200);
    const many = Array.from({ length: 30 }, (_, i) => `tool_${String.fromCharCode(97 + (i % 26))}${i}`);
    expect(diagnostics.missingMember("host:m", "tool", "zzzzzzzzzz", many)).toMatch(/\(its tools: tool_a0, .*, … \(30 in all\)\)$/);
  });
});

describe("converting a result", () => {
  const wrapBytes = (bytes: Uint8Array) => ({ bytes: Array.from(bytes) });

  it("turns Map, Set and Error into data, nested too, and bytes through the codec's stand-in", () => {
    const text = diagnostics.encodeConverted({ m: new Map([["k", new Set([1])]]), e: new RangeError("r"), pairs: new Map([[1, "one"]]), b: new Uint8Array([7]) }, wrapBytes);
    expect(JSON.parse(text as string)).toEqual({ m: { k: [1] }, e: { name: "RangeError", message: "r" }, pairs: [[1, "one"]], b: { bytes: [7] } });
  });

  it("reports a Map that contains itself as a cycle instead of recursing forever", () => {
    const map = new Map<string, unknown>();
    map.set("me", map);
    expect(() => diagnostics.encodeConverted(map, wrapBytes)).toThrow(TypeError);
  });

  it("builds the outcome envelope: notes after the value, a path for what cannot be carried", () => {
    expect(diagnostics.describeResult({ s: new Set([1]) }, undefined, 1000, wrapBytes)).toBe('{"ok":true,"value":{"s":[1]},"notes":["result.s was a Set: returned as an array"]}');
    expect(JSON.parse(diagnostics.describeResult({ n: 1n }, new TypeError("cannot serialize"), 1000, wrapBytes))).toEqual({
      ok: false,
      kind: "unserializable",
      error: { name: "TypeError", message: expect.stringMatching(/^result\.n is a BigInt/) },
    });
    expect(JSON.parse(diagnostics.describeResult({ s: new Set(["x".repeat(50)]) }, undefined, 20, wrapBytes))).toEqual({ ok: false, kind: "too_large", chars: 60 });
  });
});

describe("result notes", () => {
  it("names paths the way JavaScript spells them", () => {
    const value = { "a b": new Map([["k", new Set([1])]]), list: [{ e: new Error("x") }] };
    expect(diagnostics.resultNotes(value)).toEqual([
      'result["a b"] was a Map: returned as an object of its entries',
      'result["a b"].k was a Set: returned as an array',
      "result.list[0].e was an Error: returned as {name, message}",
    ]);
  });

  it("follows toJSON like JSON does and stops at bytes", () => {
    const value = { wrapped: { toJSON: () => new Set([1]) }, bytes: new Uint8Array([1, 2]) };
    expect(diagnostics.resultNotes(value)).toEqual(["result.wrapped was a Set: returned as an array"]);
  });

  it("finds a BigInt or a cycle, or nothing", () => {
    const cyclic: Record<string, unknown> = { list: [] };
    (cyclic.list as unknown[]).push(cyclic);
    expect(diagnostics.unserializable(cyclic)).toMatch(/^result\.list\[0\] refers back to result \(a cycle\)/);
    expect(diagnostics.unserializable({ n: [1, 2n] })).toMatch(/^result\.n\[1\] is a BigInt \(2n\)/);
    expect(diagnostics.unserializable({ fine: true })).toBeUndefined();
  });

  it("bounds the walk of a huge value", () => {
    const wide = Array.from({ length: 50_000 }, () => ({ x: 1 }));
    wide.push({ x: 1, big: 1n } as never);
    expect(diagnostics.unserializable(wide)).toBeUndefined();
  });
});

describe("syntax error snippets", () => {
  it("puts a caret under the column, showing tabs as one space", () => {
    expect(sourceSnippet("a\n\tlet x = ;\nb", 2, 10)).toBe("2 |  let x = ;\n  |          ^");
  });

  it("cuts a long line around the column so the caret stays on screen", () => {
    const line = `${"x".repeat(300)}?!${"y".repeat(300)}`;
    const snippet = sourceSnippet(line, 1, 301) ?? "";
    const [code, caret] = snippet.split("\n") as [string, string];
    expect(code.length).toBeLessThan(120);
    expect(code[caret.indexOf("^")]).toBe("?");
    expect(code).toMatch(/^1 \| …x+\?!y+…$/);
  });

  it("gives nothing for a line that does not exist", () => {
    expect(sourceSnippet("one line", 3, 1)).toBeUndefined();
  });

  it("keeps parser messages that are not about the end of input or types", () => {
    const problem = { message: "Unexpected token", line: 1, column: 5 };
    expect(explainParseError("a +* b;", problem, 3)).toEqual(problem);
    expect(explainParseError('const s = "open', { message: "Unterminated string constant.", line: 1, column: 11 }, 10).message).toBe("Unterminated string constant.");
  });
});
