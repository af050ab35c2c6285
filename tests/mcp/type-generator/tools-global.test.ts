import { describe, it, expect } from "vitest";
import { generateToolsGlobalDeclaration, TypeGeneratorError } from "../../../src/mcp/type-generator/index.js";

describe("generateToolsGlobalDeclaration", () => {
  it("declares one object of async functions per server, referencing the module types", () => {
    const result = generateToolsGlobalDeclaration([
      {
        serverName: "memory",
        tools: [
          { jsName: "read_graph", originalName: "read_graph", description: "Read the graph", annotations: { readOnlyHint: true }, inputSchema: { type: "object" } },
          { jsName: "open_nodes", originalName: "open_nodes", inputSchema: { type: "object", properties: { names: { type: "array" } }, required: ["names"] } },
        ],
      },
      {
        serverName: "my-server",
        tools: [{ jsName: "get_sum", originalName: "get-sum", inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } }],
      },
      { serverName: "idle", tools: [] },
    ]);

    expect(result).toBe(
      [
        "declare const tools: {",
        "  memory: {",
        "    /**",
        "     * Read the graph",
        "     *",
        "     * Hints: read-only.",
        "     */",
        '    read_graph(input?: import("host:mcp-memory").ReadGraphInput, options?: import("host:mcp-memory").CallOptions): Promise<import("host:mcp-memory").ReadGraphOutput>;',
        '    open_nodes(input: import("host:mcp-memory").OpenNodesInput, options?: import("host:mcp-memory").CallOptions): Promise<import("host:mcp-memory").OpenNodesOutput>;',
        "  };",
        '  "my-server": {',
        '    /** @see MCP tool "get-sum" */',
        '    get_sum(input: import("host:mcp-my-server").GetSumInput, options?: import("host:mcp-my-server").CallOptions): Promise<import("host:mcp-my-server").GetSumOutput>;',
        "  };",
        "  idle: {};",
        "};",
        "",
      ].join("\n"),
    );
  });

  it("refuses the same server twice", () => {
    const twice = () =>
      generateToolsGlobalDeclaration([
        { serverName: "memory", tools: [] },
        { serverName: "memory", tools: [] },
      ]);

    expect(twice).toThrow(TypeGeneratorError);
    expect(twice).toThrow(expect.objectContaining({ code: "TYPEGEN_INVALID_SERVER_NAME" }));
  });
});
