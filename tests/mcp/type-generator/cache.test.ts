import { describe, it, expect } from "vitest";
import { CompiledTypesCache, generateModuleDeclaration } from "../../../src/mcp/type-generator/index.js";
import { loadListing } from "./fixture-tools.js";

describe("CompiledTypesCache", () => {
  it("compiles a server once: the same tools give the same text from the cache", async () => {
    const cache = new CompiledTypesCache();
    const tools = loadListing("everything");

    const first = await generateModuleDeclaration("everything", tools, { cache });
    expect(cache.size).toBe(1);
    const second = await generateModuleDeclaration("everything", tools, { cache });

    expect(second).toBe(first);
    expect(cache.size).toBe(1);
  });

  it("compiles again when a schema changes", async () => {
    const cache = new CompiledTypesCache();
    const tools = loadListing("sequential-thinking");
    await generateModuleDeclaration("st", tools, { cache });
    const changed = tools.map((tool) => ({ ...tool, inputSchema: { ...tool.inputSchema, properties: { only: { type: "string" } } } }));

    const result = await generateModuleDeclaration("st", changed, { cache });

    expect(cache.size).toBe(2);
    expect(result).toContain("  export interface SequentialthinkingInput {\n    only?: string\n  }");
  });

  it("remembers a schema the compiler refused, so a broken tool is not recompiled on every generation", async () => {
    const cache = new CompiledTypesCache();
    const tools = [{ jsName: "broken", originalName: "broken", inputSchema: { type: "object", properties: { a: { $ref: "#/properties/a" } } } }];

    const first = await generateModuleDeclaration("b", tools, { cache });
    // The refused batch, the refused input alone, its stand-in type, and the output alone.
    expect(cache.size).toBe(4);
    const second = await generateModuleDeclaration("b", tools, { cache });

    expect(first).toContain("export type BrokenInput = Record<string, unknown>");
    expect(second).toBe(first);
    expect(cache.size).toBe(4);
  });

  it("forgets the least recently used entry beyond its bound", () => {
    const cache = new CompiledTypesCache(2);
    const text = (value: string) => ({ ok: true as const, text: value });
    cache.set("a", text("1"));
    cache.set("b", text("2"));
    expect(cache.get("a")).toEqual(text("1"));
    cache.set("c", text("3"));

    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toEqual(text("1"));
    expect(cache.get("c")).toEqual(text("3"));
  });
});
