import { describe, it, expect } from "vitest";
import { buildModuleMetadata, generateModuleDeclaration, TypeGeneratorError, type ToolForTypes } from "../../../src/mcp/type-generator/index.js";
import { allocateToolTypeNames, pascalName, TypeNameAllocator } from "../../../src/mcp/type-generator/names.js";

const tool = (jsName: string): ToolForTypes => ({ jsName, originalName: jsName, inputSchema: { type: "object" } });

async function codeOf(action: () => unknown): Promise<string | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    return error instanceof TypeGeneratorError ? error.code : `not a TypeGeneratorError: ${String(error)}`;
  }
}

describe("type names", () => {
  it("are PascalCase from the JS name, with Input/Output suffixes", () => {
    expect(allocateToolTypeNames([tool("create_entities"), tool("getUser"), tool("get_3d_model"), tool("$x")])).toEqual([
      { prefix: "CreateEntities", input: "CreateEntitiesInput", output: "CreateEntitiesOutput" },
      { prefix: "GetUser", input: "GetUserInput", output: "GetUserOutput" },
      { prefix: "Get3DModel", input: "Get3DModelInput", output: "Get3DModelOutput" },
      { prefix: "X", input: "XInput", output: "XOutput" },
    ]);
  });

  it("get a counter when two tools map to the same name, and never take the module's own names", () => {
    const allocator = new TypeNameAllocator();
    expect(allocateToolTypeNames([tool("get_user"), tool("getUser")], allocator).map((names) => names.input)).toEqual(["GetUserInput", "GetUserInput2"]);
    expect(allocator.allocate("BatchOptions")).toBe("BatchOptions2");
    expect(allocator.allocate("BatchResult")).toBe("BatchResult2");
  });

  it("fall back when text has no usable characters and never start with a digit", () => {
    expect(pascalName("été ✓", "Type")).toBe("T");
    expect(pascalName("✓✓", "Type")).toBe("Type");
    expect(pascalName("3 things", "Type")).toBe("Type3Things");
  });
});

describe("contract errors from the caller", () => {
  it("are TypeGeneratorErrors with a stable code", async () => {
    expect(await codeOf(() => generateModuleDeclaration("Bad_Name", []))).toBe("TYPEGEN_INVALID_SERVER_NAME");
    expect(await codeOf(() => generateModuleDeclaration("ok", [tool("get-sum")]))).toBe("TYPEGEN_INVALID_TOOL_NAME");
    expect(await codeOf(() => generateModuleDeclaration("ok", [tool("delete")]))).toBe("TYPEGEN_INVALID_TOOL_NAME");
    expect(await codeOf(() => generateModuleDeclaration("ok", [tool("$batch")]))).toBe("TYPEGEN_INVALID_TOOL_NAME");
    expect(await codeOf(() => generateModuleDeclaration("ok", [tool("a"), tool("a")]))).toBe("TYPEGEN_DUPLICATE_TOOL_NAME");
    expect(await codeOf(() => buildModuleMetadata("ok", [{ jsName: "a", originalName: "a" } as unknown as ToolForTypes]))).toBe("TYPEGEN_INVALID_TOOL");
  });
});
