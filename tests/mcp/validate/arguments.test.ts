import { describe, expect, it } from "vitest";
import { McpInvalidArgumentsError, ToolArgumentValidator } from "../../../src/mcp/validate/arguments.js";

const createEntities = {
  type: "object",
  properties: {
    entities: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, entityType: { type: "string" }, observations: { type: "array", items: { type: "string" } } },
        required: ["name", "entityType", "observations"],
      },
    },
  },
  required: ["entities"],
  $schema: "http://json-schema.org/draft-07/schema#",
};

describe("ToolArgumentValidator", () => {
  const validator = new ToolArgumentValidator(createEntities);

  it("accepts arguments that match the inputSchema", () => {
    expect(validator.check({ entities: [{ name: "a", entityType: "person", observations: [] }] })).toEqual([]);
  });

  it("names the JSON path of each problem", () => {
    const problems = validator.check({ entities: [{ name: "a", entityType: 5, observations: [] }] });
    expect(problems.map((p) => p.path)).toContain("entities[0].entityType");
  });

  it("reports a missing required property", () => {
    expect(validator.check({}).some((p) => p.message.includes("entities"))).toBe(true);
  });

  it("requires an object even when the schema is unusable", () => {
    const broken = new ToolArgumentValidator("not a schema");
    expect(broken.schemaProblem).toBe("inputSchema is not an object");
    expect(broken.check([1, 2])).toEqual([{ path: "(arguments)", message: "must be an object, got an array" }]);
    expect(broken.check({ any: "thing" })).toEqual([]);
  });

  it("throws a typed error that names server and tool and says nothing was sent", () => {
    const error = (() => {
      try {
        validator.assertValid("memory", "create_entities", { entities: "nope" });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(McpInvalidArgumentsError);
    expect((error as McpInvalidArgumentsError).code).toBe("MCP_INVALID_ARGUMENTS");
    expect((error as Error).name).toBe("McpInvalidArgumentsError");
    expect((error as Error).message).toMatch(/^invalid arguments for memory\.create_entities \(nothing was sent to the server\): entities: /);
  });
});
