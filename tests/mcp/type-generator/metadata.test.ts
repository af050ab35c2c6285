import { describe, it, expect } from "vitest";
import { buildModuleMetadata, firstSentence, formatSchemaType, formatToolSignature, type ToolForTypes } from "../../../src/mcp/type-generator/index.js";
import { loadListing } from "./fixture-tools.js";

describe("buildModuleMetadata", () => {
  it("describes server-memory for module_info", () => {
    const metadata = buildModuleMetadata("memory", loadListing("memory").slice(0, 2));

    expect(metadata).toEqual({
      module: "mcp-memory",
      summary: 'MCP server "memory", 2 tools: create_entities, create_relations',
      tools: [
        {
          jsName: "create_entities",
          originalName: "create_entities",
          summary: "Create multiple new entities in the knowledge graph",
          signature:
            "create_entities(input: { entities: { name: string; entityType: string; observations: string[] }[] }): { entities: { name: string; entityType: string; observations: string[] }[] }",
          hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
        },
        {
          jsName: "create_relations",
          originalName: "create_relations",
          summary: "Create multiple new relations between entities in the knowledge graph.",
          signature:
            "create_relations(input: { relations: { from: string; to: string; relationType: string }[] }): { relations: { from: string; to: string; relationType: string }[] }",
          hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
        },
      ],
    });
  });

  it("takes the module summary from the server's description, then its instructions, on one line", () => {
    expect(buildModuleMetadata("a", [], { description: "Knowledge graph.  Stores\nthings.", instructions: "Use it." }).summary).toBe("Knowledge graph.");
    expect(buildModuleMetadata("a", [], { instructions: "\u001b[1mCall\u001b[0m read_graph first\nthen search." }).summary).toBe(
      "Call read_graph first then search.",
    );
    expect(buildModuleMetadata("a", []).summary).toBe('MCP server "a" (no tools)');
  });

  it("falls back to the title, then the MCP name, for a tool without description; hints only when declared", () => {
    const tools: ToolForTypes[] = [
      { jsName: "a", originalName: "a", annotations: { title: "Alpha tool", readOnlyHint: true }, inputSchema: { type: "object" } },
      { jsName: "b_c", originalName: "b.c", inputSchema: { type: "object" } },
    ];
    const [a, b] = buildModuleMetadata("x", tools).tools;

    expect(a).toMatchObject({ summary: "Alpha tool", hints: { readOnly: true } });
    expect(b).toMatchObject({ summary: 'MCP tool "b.c"', hints: {} });
  });
});

describe("firstSentence", () => {
  it("keeps the first sentence of sanitised text, capped at 120 characters", () => {
    expect(firstSentence("Reads a file. Returns text.")).toBe("Reads a file.");
    expect(firstSentence("Version 1.2 reads files! Then more")).toBe("Version 1.2 reads files!");
    expect(firstSentence("No full stop here")).toBe("No full stop here");
    expect(firstSentence(`${"word ".repeat(40)}end.`)).toBe(`${"word ".repeat(23)}word…`);
    expect(firstSentence("ends */ comment.")).toBe("ends *\\/ comment.");
  });
});

describe("formatToolSignature", () => {
  const schema = {
    type: "object",
    properties: {
      state: { type: "string", enum: ["open", "closed", "all"] },
      "per-page": { type: "integer" },
      labels: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
      filter: { $ref: "#/$defs/Filter" },
      remote: { $ref: "https://127.0.0.1:9/x.json" },
    },
    required: ["state"],
    $defs: { Filter: { type: "object", properties: { since: { type: "string" }, deep: { type: "object", properties: { x: { type: "object", properties: { y: { type: "string" } } } } } } } },
  };

  it("writes the input and output shapes inline on one line", () => {
    expect(formatToolSignature({ jsName: "list_issues", originalName: "list_issues", inputSchema: schema })).toBe(
      'list_issues(input: { state: "open" | "closed" | "all"; "per-page"?: number; labels?: (string | number)[]; filter?: { since?: string; deep?: { x?: object } }; remote?: unknown }): unknown',
    );
  });

  it("elides nesting, then cuts, to stay within maxLength", () => {
    expect(formatToolSignature({ jsName: "list_issues", originalName: "list_issues", inputSchema: schema }, { maxLength: 160 })).toBe(
      'list_issues(input: { state: "open" | "closed" | "all"; "per-page"?: number; labels?: (string | number)[]; filter?: object; remote?: unknown }): unknown',
    );
    const cut = formatToolSignature({ jsName: "list_issues", originalName: "list_issues", inputSchema: schema }, { maxLength: 40 });
    expect(cut).toBe('list_issues(input: { state: "open" | "c…');
    expect(cut).toHaveLength(40);
  });

  it("renders the common schema shapes", () => {
    expect(formatSchemaType({ type: "object" })).toBe("Record<string, unknown>");
    expect(formatSchemaType({ type: "object", additionalProperties: false })).toBe("{}");
    expect(formatSchemaType({ type: "object", additionalProperties: { type: "number" } })).toBe("Record<string, number>");
    expect(formatSchemaType({ type: ["string", "null"] })).toBe("string | null");
    expect(formatSchemaType({ const: "a\u2028b" })).toBe('"a\\u2028b"');
    expect(formatSchemaType({ enum: ["a", "b", "c", "d", "e", "f", "g"] })).toBe("string");
    expect(formatSchemaType({ allOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "number" } } }] })).toBe(
      "{ a?: string } & { b?: number }",
    );
    expect(formatSchemaType({ $ref: "#" })).toBe("unknown");
  });
});
