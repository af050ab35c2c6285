import { describe, it, expect } from "vitest";
import { CompiledTypesCache, generateModuleDeclaration, type ToolForTypes } from "../../../src/mcp/type-generator/index.js";

/**
 * Exact expected text: these tests are the documentation of the declaration format a model reads.
 * Every module ends with the same `$batch` block, checked once in full below and by its overloads elsewhere.
 */
const generate = (server: string, tools: ToolForTypes[]) => generateModuleDeclaration(server, tools, { cache: new CompiledTypesCache() });

function batchBlock(overloads: string[]): string[] {
  return [
    "  /** Options of `$batch`. */",
    "  export interface BatchOptions {",
    "    /** How many calls run at the same time: at most the server's `maxConcurrentCalls` (32 unless configured), which is also the default. */",
    "    concurrency?: number;",
    "  }",
    "  /** One entry per call of a `$batch`, in the order of `argsList`; a failed call does not fail the others. */",
    "  export type BatchResult<T> = { ok: true; value: T } | { ok: false; error: { name: string; message: string } };",
    "  /**",
    "   * Calls one tool of this server once per element of `argsList`, several at a time.",
    "   * Results come back in input order, each `{ ok: true, value }` or `{ ok: false, error }`.",
    "   */",
    ...overloads,
    "}",
    "",
  ];
}

describe("generateModuleDeclaration", () => {
  it("declares an input interface, an unknown output, a documented function and $batch", async () => {
    const result = await generate("weather", [
      {
        jsName: "get_weather",
        originalName: "get_weather",
        description: "Get weather for a city",
        inputSchema: {
          type: "object",
          properties: {
            city: { type: "string", description: "City name" },
            units: { type: "string", enum: ["celsius", "fahrenheit"] },
          },
          required: ["city"],
        },
      },
    ]);

    expect(result).toBe(
      [
        'declare module "host:mcp-weather" {',
        "  export interface GetWeatherInput {",
        "    /** City name */",
        "    city: string",
        '    units?: ("celsius" | "fahrenheit")',
        "  }",
        "  export type GetWeatherOutput = unknown",
        "",
        "  /** Get weather for a city */",
        "  export function get_weather(input: GetWeatherInput): GetWeatherOutput;",
        "",
        ...batchBlock([
          '  export function $batch(tool: "get_weather", argsList: readonly GetWeatherInput[], options?: BatchOptions): BatchResult<GetWeatherOutput>[];',
        ]),
      ].join("\n"),
    );
  });

  it("types the return value from outputSchema and documents hints and the original MCP name", async () => {
    const result = await generate("users", [
      {
        jsName: "get_user",
        originalName: "get-user",
        description: "Get a user.\nReturns null fields when unknown.",
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
        inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        outputSchema: {
          type: "object",
          properties: { name: { type: "string" }, email: { type: ["string", "null"] } },
          required: ["name", "email"],
        },
      },
    ]);

    expect(result).toBe(
      [
        'declare module "host:mcp-users" {',
        "  export interface GetUserInput {",
        "    id: string",
        "  }",
        "  export interface GetUserOutput {",
        "    name: string",
        "    email: (string | null)",
        "  }",
        "",
        "  /**",
        "   * Get a user.",
        "   * Returns null fields when unknown.",
        "   *",
        "   * Hints: read-only, idempotent, open-world.",
        '   * @see MCP tool "get-user"',
        "   */",
        "  export function get_user(input: GetUserInput): GetUserOutput;",
        "",
        ...batchBlock([
          '  export function $batch(tool: "get_user", argsList: readonly GetUserInput[], options?: BatchOptions): BatchResult<GetUserOutput>[];',
        ]),
      ].join("\n"),
    );
  });

  it("names $ref targets per tool, so two tools with the same definition names do not collide", async () => {
    const schema = (description: string) => ({
      type: "object",
      properties: { node: { $ref: "#/$defs/Node" }, tag: { $ref: "#/definitions/tag" } },
      required: ["node"],
      $defs: {
        Node: {
          type: "object",
          description,
          properties: { id: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
          required: ["id"],
        },
      },
      definitions: { tag: { type: "string", enum: ["a", "b"] } },
    });
    const result = await generate("graph", [
      { jsName: "add_node", originalName: "add_node", inputSchema: schema("A node to add") },
      { jsName: "move_node", originalName: "move_node", inputSchema: schema("A node to move") },
    ]);

    expect(result).toBe(
      [
        'declare module "host:mcp-graph" {',
        "  export interface AddNodeInput {",
        "    node: AddNodeNode",
        "    tag?: AddNodeTag",
        "  }",
        "  export type AddNodeOutput = unknown",
        "  /** A node to add */",
        "  export interface AddNodeNode {",
        "    id: string",
        "    children?: AddNodeNode[]",
        "  }",
        '  export type AddNodeTag = ("a" | "b")',
        "  export interface MoveNodeInput {",
        "    node: MoveNodeNode",
        "    tag?: MoveNodeTag",
        "  }",
        "  export type MoveNodeOutput = unknown",
        "  /** A node to move */",
        "  export interface MoveNodeNode {",
        "    id: string",
        "    children?: MoveNodeNode[]",
        "  }",
        '  export type MoveNodeTag = ("a" | "b")',
        "",
        "  export function add_node(input: AddNodeInput): AddNodeOutput;",
        "  export function move_node(input: MoveNodeInput): MoveNodeOutput;",
        "",
        ...batchBlock([
          '  export function $batch(tool: "add_node", argsList: readonly AddNodeInput[], options?: BatchOptions): BatchResult<AddNodeOutput>[];',
          '  export function $batch(tool: "move_node", argsList: readonly MoveNodeInput[], options?: BatchOptions): BatchResult<MoveNodeOutput>[];',
        ]),
      ].join("\n"),
    );
  });

  it("writes unions, consts and explicit additionalProperties; input is optional when nothing is required", async () => {
    const result = await generate("unions", [
      {
        jsName: "find",
        originalName: "find",
        inputSchema: {
          type: "object",
          properties: {
            by: {
              oneOf: [
                { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
                { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
              ],
            },
            limit: { anyOf: [{ type: "number" }, { type: "null" }] },
            mode: { const: "fast" },
            labels: { type: "object", additionalProperties: { type: "string" } },
            open: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
            closed: { type: "object", properties: { a: { type: "string" } } },
          },
        },
      },
    ]);

    expect(result).toBe(
      [
        'declare module "host:mcp-unions" {',
        "  export interface FindInput {",
        "    by?: ({",
        "      id: number",
        "    } | {",
        "      name: string",
        "    })",
        "    limit?: (number | null)",
        '    mode?: "fast"',
        "    labels?: {",
        "      [k: string]: string",
        "    }",
        "    open?: {",
        "      a?: string",
        "      [k: string]: unknown",
        "    }",
        "    closed?: {",
        "      a?: string",
        "    }",
        "  }",
        "  export type FindOutput = unknown",
        "",
        "  export function find(input?: FindInput): FindOutput;",
        "",
        ...batchBlock([
          '  export function $batch(tool: "find", argsList: readonly FindInput[], options?: BatchOptions): BatchResult<FindOutput>[];',
        ]),
      ].join("\n"),
    );
  });

  it("declares a generic $batch for a server without tools", async () => {
    expect(await generate("empty", [])).toBe(
      [
        'declare module "host:mcp-empty" {',
        ...batchBlock(["  export function $batch(tool: never, argsList: readonly unknown[], options?: BatchOptions): BatchResult<unknown>[];"]),
      ].join("\n"),
    );
  });

  it("keeps a tool's own type names even when another tool's nested type would take them", async () => {
    const result = await generate("clash", [
      {
        jsName: "foo",
        originalName: "foo",
        inputSchema: { type: "object", properties: { x: { $ref: "#/$defs/BarInput" } }, $defs: { BarInput: { type: "object", properties: { y: { type: "string" } } } } },
      },
      { jsName: "foo_bar", originalName: "foo_bar", inputSchema: { type: "object", properties: { z: { type: "number" } }, required: ["z"] } },
    ]);

    expect(result).toContain("  export interface FooBarInput {\n    z: number\n  }");
    expect(result).toContain("  export interface FooBarInput2 {\n    y?: string\n  }");
    expect(result).toContain("  export interface FooInput {\n    x?: FooBarInput2\n  }");
    expect(result).toContain("  export function foo_bar(input: FooBarInput): FooBarOutput;");
  });
});
