import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, it, expect } from "vitest";
import { CompiledTypesCache, generateModuleDeclaration, type ToolForTypes } from "../../../src/mcp/type-generator/index.js";
import { typeCheck } from "./ts-check.js";

const generate = (tools: ToolForTypes[], limits?: { maxDepth?: number; maxNodes?: number }) =>
  generateModuleDeclaration("evil", tools, { cache: new CompiledTypesCache(), ...(limits === undefined ? {} : { limits }) });

/** A schema exactly as it would arrive over the wire: JSON text parsed, so `__proto__` is an own key. */
const wire = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

function tool(inputSchema: Record<string, unknown>, extra: Partial<ToolForTypes> = {}): ToolForTypes {
  return { jsName: "do_it", originalName: "do_it", inputSchema, ...extra };
}

function expectValidTypeScript(declaration: string, functionName = "do_it"): void {
  const use = `import * as evil from "host:mcp-evil";\nexport const f = evil.${functionName};\n`;
  expect(typeCheck({ "/virtual/evil.d.ts": declaration, "/virtual/use.ts": use })).toEqual([]);
}

describe("hostile schemas still produce valid TypeScript", () => {
  it("neutralises comment terminators, control characters and line separators in every description", async () => {
    const result = await generate([
      tool(
        wire({
          type: "object",
          description: "root */ declare global { var pwned: 1 } /*",
          properties: { a: { type: "string", description: "ends */ here\u2028next\u001b[31m red\u0007" } },
        }),
        { description: "Does */ things", originalName: "do it */\nnow", annotations: { title: "*/ title" } },
      ),
    ]);

    expect(result).not.toMatch(/^\s*declare global/m);
    expect(result).toContain("  /** root *\\/ declare global { var pwned: 1 } /* */\n  export interface DoItInput {");
    expect(result).toContain("    /**\n     * ends *\\/ here\n     * next red\n     */\n    a?: string");
    expect(result).toContain('  /**\n   * Does *\\/ things\n   *\n   * @see MCP tool "do it *\\/ now"\n   */\n  export function do_it(');
    expectValidTypeScript(result);
  });

  it("quotes property names that are not identifiers and escapes quotes in enum strings", async () => {
    const result = await generate([
      tool(
        wire({
          type: "object",
          properties: {
            "a-b": { type: "string" },
            'quote"d': { type: "string", enum: ["it's", 'say "hi"', "*/", "back\\slash", "\u2028"] },
            "new\nline": { type: "string" },
            "": { type: "string" },
            "123": { type: "boolean" },
            constructor: { type: "string" },
            __proto__: { type: "number" },
            objects: { enum: [{ a: 1 }, [1, "x"], null, true] },
          },
          required: ["a-b"],
        }),
      ),
    ]);

    expect(result).toContain('    "a-b": string\n');
    expect(result).toContain('    "quote\\"d"?: ("it\'s" | "say \\"hi\\"" | "*/" | "back\\\\slash" | "\u2028")\n');
    expect(result).toContain('    "new\\nline"?: string\n');
    expect(result).toContain('    ""?: string\n');
    expect(result).toContain('    objects?: ({"a":1} | [1,"x"] | null | true)\n');
    expectValidTypeScript(result);
  });

  it("ignores tsType, tsEnumNames, $id and titles from the server (they would inject code or names)", async () => {
    const result = await generate([
      tool(
        wire({
          type: "object",
          title: "Hijacked",
          $id: "https://127.0.0.1:9/root.json",
          properties: {
            inject: { type: "string", tsType: "string }\ndeclare global { var x: 1 }\ninterface Z {" },
            colour: { type: "string", enum: ["r", "g"], tsEnumNames: ["Red", "Green"] },
            named: { type: "object", title: "Evil */ Name", properties: { x: { type: "string", title: "X" } } },
          },
        }),
      ),
    ]);

    expect(result).toContain(
      ["  export interface DoItInput {", "    inject?: string", '    colour?: ("r" | "g")', "    named?: {", "      x?: string", "    }", "  }"].join("\n"),
    );
    expect(result).not.toContain("Hijacked");
    expect(result).not.toContain("declare global");
    expect(result).not.toContain("enum");
    expectValidTypeScript(result);
  });

  it("reads a top-level __proto__ key as data: nothing is polluted and the types stay valid", async () => {
    const inputSchema = JSON.parse('{"__proto__": {"const": "x", "tsType": "evil"}, "type": "object", "properties": {"a": {"type": "string"}}}') as Record<string, unknown>;
    const result = await generate([tool(inputSchema)]);

    expect(({} as Record<string, unknown>).tsType).toBeUndefined();
    expect(result).toContain("  export interface DoItInput {\n    a?: string\n  }");
    expectValidTypeScript(result);
  });

  it("cuts nesting deeper than the limit to unknown", async () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 200; level += 1) deep = { type: "object", properties: { next: deep } };
    const result = await generate([tool(deep)], { maxDepth: 3 });

    expect(result).toContain(
      [
        "  export interface DoItInput {",
        "    next?: {",
        "      next?: {",
        "        next?: {",
        "          next?: unknown",
        "        }",
        "      }",
        "    }",
        "  }",
      ].join("\n"),
    );
    expectValidTypeScript(await generate([tool(deep)]));
  });

  it("widens an index signature that declared properties would not fit", async () => {
    const result = await generate([
      tool({
        type: "object",
        properties: { count: { type: "number" } },
        additionalProperties: { type: "string" },
        patternProperties: { "^x-": { type: "boolean" } },
      }),
    ]);

    expect(result).toContain("  export interface DoItInput {\n    count?: number\n    [k: string]: unknown\n  }");
    expectValidTypeScript(result);
  });
});

describe("a schema that cannot be converted degrades for its tool only", () => {
  it("leaves the input open with a comment when the compiler rejects the schema, and keeps the other tools", async () => {
    const result = await generate([
      { jsName: "broken", originalName: "broken", inputSchema: { type: "object", properties: { a: { $ref: "#/properties/a" } } } },
      { jsName: "fine", originalName: "fine", inputSchema: { type: "object", properties: { b: { type: "string" } }, required: ["b"] } },
    ]);

    expect(result).toMatch(/ {2}\/\*\* mcpvm could not turn this tool's JSON Schema into a type \([^\n]*\); it is left open\. \*\/\n {2}export type BrokenInput = Record<string, unknown>\n {2}export type BrokenOutput = unknown\n/);
    expect(result).toContain("  export interface FineInput {\n    b: string\n  }");
    expect(result).toContain("  export function broken(input?: BrokenInput, options?: CallOptions): BrokenOutput;");
    expectValidTypeScript(result, "fine");
  });

  it("does not hand a schema over the size limit to the compiler", async () => {
    const properties = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`p${index}`, { type: "string" }]));
    const result = await generate([tool({ type: "object", properties })], { maxNodes: 10 });

    expect(result).toContain(
      "  /** mcpvm could not turn this tool's JSON Schema into a type (schema has more than 10 sub-schemas); it is left open. */\n  export type DoItInput = Record<string, unknown>\n",
    );
    expectValidTypeScript(result);
  });

  it("survives a schema that is only a reference to itself", async () => {
    const result = await generate([tool({ $ref: "#" })]);

    expect(result).toContain("export type DoItInput = Record<string, unknown>");
    expectValidTypeScript(result);
  });
});

describe("$ref never leaves the document", () => {
  let server: Server;
  let requests = 0;
  let baseUrl = "";
  let directory = "";

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests += 1;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ type: "object", properties: { leaked: { type: "string" } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    baseUrl = `http://127.0.0.1:${address.port}`;
    directory = mkdtempSync(join(tmpdir(), "mcpvm-typegen-"));
    writeFileSync(join(directory, "other.json"), JSON.stringify({ type: "object", properties: { fromFile: { type: "string" } } }));
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error))));
    rmSync(directory, { recursive: true, force: true });
  });

  it("turns URL, file and anchor refs into unknown without fetching or reading anything", async () => {
    const fileUrl = pathToFileURL(join(directory, "other.json")).href;
    const result = await generate([
      tool({
        type: "object",
        properties: {
          remote: { $ref: `${baseUrl}/schema.json` },
          remoteFragment: { $ref: `${baseUrl}/schema.json#/properties/leaked` },
          file: { $ref: fileUrl },
          relative: { $ref: join(directory, "other.json") },
          anchor: { $ref: "#thing" },
          missing: { $ref: "#/$defs/Nope" },
        },
      }),
    ]);

    expect(requests).toBe(0);
    expect(result).not.toContain("leaked?");
    expect(result).not.toContain("fromFile");
    expect(result).toContain(
      `    /** Unresolved $ref "${baseUrl}/schema.json": only references inside this schema are followed. */\n    remote?: unknown\n`,
    );
    expect(result).toContain('    /** Unresolved $ref "#/$defs/Nope": only references inside this schema are followed. */\n    missing?: unknown\n');
    expectValidTypeScript(result);
  });
});
