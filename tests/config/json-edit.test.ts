import { describe, expect, it } from "vitest";
import { changesBetween, detectLayout, editJsonText, editJsonTextInPlace } from "../../src/config/json-edit.js";

describe("detectLayout: the text's own indentation and line endings", () => {
  it("reads 4 spaces, tabs, CRLF, one line (compact), and falls back to 2 spaces and LF", () => {
    expect(detectLayout('{\n    "a": 1\n}\n')).toEqual({ indent: "    ", eol: "\n" });
    expect(detectLayout('{\n\t"a": 1\n}\n')).toEqual({ indent: "\t", eol: "\n" });
    expect(detectLayout('{\r\n  "a": 1\r\n}\r\n')).toEqual({ indent: "  ", eol: "\r\n" });
    expect(detectLayout('{"a":1}\n')).toEqual({ indent: "", eol: "\n" });
    expect(detectLayout('{\n"a":1\n}')).toEqual({ indent: "  ", eol: "\n" });
  });
});

describe("changesBetween: member-level changes", () => {
  it("names added, removed and replaced members by path, objects compared key by key, arrays whole", () => {
    const before = { a: 1, servers: { x: { command: "x" }, y: { command: "y" } }, roots: ["/a"] };
    const after = { a: 1, servers: { x: { command: "x2" }, z: { command: "z" } }, roots: ["/a", "/b"] };
    expect(changesBetween(before, after)).toEqual([
      { path: ["servers", "y"], value: undefined },
      { path: ["servers", "x", "command"], value: "x2" },
      { path: ["servers", "z"], value: { command: "z" } },
      { path: ["roots"], value: ["/a", "/b"] },
    ]);
    expect(changesBetween(before, structuredClone(before))).toEqual([]);
  });
});

describe("editJsonText: only what changed is edited", () => {
  it("keeps a 4-space file's indentation, key order and untouched members byte for byte", () => {
    const text = '{\n    "mcpServers": {\n        "b": { "command": "b" },\n        "a": {"command":"a"}\n    },\n    "engine": "quickjs"\n}\n';
    const before = JSON.parse(text);
    const after = { ...before, mcpServers: { ...before.mcpServers, c: { command: "c", args: ["--x"] } } };
    const edited = editJsonText(text, before, after);
    expect(JSON.parse(edited)).toEqual(after);
    expect(edited).toContain('        "b": { "command": "b" },\n        "a": {"command":"a"},\n');
    expect(edited).toMatch(/\n {8}"c": \{\n {12}"command": "c",/);
    expect(edited.indexOf('"mcpServers"')).toBeLessThan(edited.indexOf('"engine"'));
  });

  it("removes one member and leaves the rest; keeps CRLF and tabs", () => {
    const text = '{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "a"},\r\n\t\t"b": {"command": "b"}\r\n\t}\r\n}\r\n';
    const before = JSON.parse(text);
    const after = { mcpServers: { b: { command: "b" } } };
    const edited = editJsonText(text, before, after);
    expect(JSON.parse(edited)).toEqual(after);
    expect(edited).toContain('\t\t"b": {"command": "b"}\r\n');
    expect(edited).not.toMatch(/[^\r]\n/);
  });

  it("keeps a byte-order mark and writes an empty text whole", () => {
    const text = '\uFEFF{\n  "engine": "quickjs"\n}\n';
    const edited = editJsonText(text, { engine: "quickjs" }, { engine: "quickjs-inline" });
    expect(edited).toBe('\uFEFF{\n  "engine": "quickjs-inline"\n}\n');
    expect(editJsonText("", {}, { engine: "auto" })).toBe('{\n  "engine": "auto"\n}\n');
  });
});

describe("editJsonText on every shape of change", () => {
  it("an empty object, a minified file, a nested replacement, the last and the only member", () => {
    expect(editJsonText('{\n  "mcpServers": {}\n}\n', { mcpServers: {} }, { mcpServers: { a: { command: "a" } } })).toBe(
      '{\n  "mcpServers": {\n    "a": {\n      "command": "a"\n    }\n  }\n}\n',
    );
    const minified = '{"engine":"quickjs","mcpServers":{"a":{"command":"a"}}}\n';
    expect(editJsonText(minified, JSON.parse(minified), { engine: "auto", mcpServers: { b: { args: ["x"] } } })).toBe('{"engine":"auto","mcpServers":{"b":{"args":["x"]}}}\n');
    const text = '{\n  "a": 1,\n  "b": { "deep": { "x": 1, "y": 2 } },\n  "c": 3\n}\n';
    expect(editJsonText(text, JSON.parse(text), { a: 1, b: { deep: { x: 1, y: 5 } }, c: 3 })).toBe('{\n  "a": 1,\n  "b": { "deep": { "x": 1, "y": 5 } },\n  "c": 3\n}\n');
    expect(editJsonText(text, JSON.parse(text), { a: 1, b: { deep: { x: 1, y: 2 } } })).toBe('{\n  "a": 1,\n  "b": { "deep": { "x": 1, "y": 2 } }\n}\n');
    expect(editJsonText('{\n  "only": 1\n}\n', { only: 1 }, {})).toBe("{}\n");
  });

  it("reads back as the new value after any mix of changes, in every form (seeded, 400 cases)", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const value = (depth: number): unknown =>
      depth > 2 || random() < 0.4 ? pick([1, "s", true, null, ["a", 2], "line\nbreak"]) : Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}${pick(["", "x"])}`, value(depth + 1)]));
    const mutate = (object: Record<string, unknown>): Record<string, unknown> => {
      const next = structuredClone(object);
      for (const key of Object.keys(next)) {
        const roll = random();
        if (roll < 0.2) delete next[key];
        else if (roll < 0.4) next[key] = value(1);
        else if (roll < 0.6 && typeof next[key] === "object" && next[key] !== null && !Array.isArray(next[key])) next[key] = mutate(next[key] as Record<string, unknown>);
      }
      if (random() < 0.5) next[`new${Math.floor(random() * 5)}`] = value(1);
      return next;
    };
    const forms: ((v: unknown) => string)[] = [(v: unknown) => JSON.stringify(v, null, 2), (v: unknown) => JSON.stringify(v, null, 4), (v: unknown) => JSON.stringify(v, null, "\t"), (v: unknown) => JSON.stringify(v, null, 2).replaceAll("\n", "\r\n"), (v: unknown) => JSON.stringify(v)];
    for (let i = 0; i < 400; i++) {
      const before = { top: value(0), servers: value(1), other: 1 } as Record<string, unknown>;
      const after = mutate(before);
      const text = pick(forms)(before);
      const edited = editJsonTextInPlace(text, before, after);
      expect(JSON.parse(edited)).toEqual(JSON.parse(JSON.stringify(after)));
      expect(editJsonText(text, before, structuredClone(before))).toBe(text);
    }
  });
});
