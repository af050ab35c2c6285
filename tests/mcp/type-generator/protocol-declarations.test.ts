import { describe, expect, it } from "vitest";
import { CompiledTypesCache, generateModuleDeclaration, protocolNamespaces } from "../../../src/mcp/type-generator/index.js";
import { typeCheck } from "./ts-check.js";

const echo = { originalName: "echo", jsName: "echo", description: "Echoes.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };

async function declare(tools: (typeof echo)[], capabilities: { resources?: object; prompts?: object }): Promise<string> {
  const protocol = protocolNamespaces(capabilities, tools.map((tool) => tool.jsName));
  return generateModuleDeclaration("files", tools, { cache: new CompiledTypesCache(), protocol });
}

describe("resources and prompts in a server module's declaration", () => {
  it("declares resources.list/read/readAll/templates and prompts.list/get that guest code type-checks against", async () => {
    const declaration = await declare([echo], { resources: {}, prompts: {} });
    const guest = [
      'import * as files from "host:mcp-files";',
      "const listed = files.resources.list();",
      "export const uris: string[] = listed.map((resource) => resource.uri);",
      "const content = files.resources.read(uris[0] ?? \"file:///x\");",
      "export const size: number = typeof content === \"string\" ? content.length : content.byteLength;",
      "export const parts = files.resources.readAll(\"file:///x\").map((part) => part.blob ?? part.text);",
      "export const templates: string[] = files.resources.templates().map((template) => template.uriTemplate);",
      "export const prompt = files.prompts.get(\"review\", { code: \"x\" }).messages[0]?.content.text;",
      "export const names: string[] = files.prompts.list().map((p) => p.name);",
      "",
    ].join("\n");
    expect(typeCheck({ "/virtual/mcp.d.ts": declaration, "/virtual/guest.ts": guest })).toEqual([]);
    const wrong = 'import * as files from "host:mcp-files";\nexport const n: number = files.resources.read(42);\n';
    expect(typeCheck({ "/virtual/mcp.d.ts": declaration, "/virtual/guest.ts": wrong }).length).toBeGreaterThan(0);
  });

  it("has no namespace the server did not advertise", async () => {
    const declaration = await declare([echo], {});
    expect(declaration).not.toContain("resources");
    expect(declaration).not.toContain("prompts");
    const guest = 'import * as files from "host:mcp-files";\nexport const x = files.resources.list();\n';
    expect(typeCheck({ "/virtual/mcp.d.ts": declaration, "/virtual/guest.ts": guest }).length).toBeGreaterThan(0);
  });

  it("moves a namespace to $resources when a tool is already called resources", async () => {
    const tools = [echo, { ...echo, originalName: "resources", jsName: "resources" }];
    expect(protocolNamespaces({ resources: {}, prompts: {} }, ["resources"])).toEqual({ resources: "$resources", prompts: "prompts" });
    const declaration = await declare(tools, { resources: {} });
    const guest = 'import * as files from "host:mcp-files";\nexport const a = files.resources({ text: "x" });\nexport const b = files.$resources.list();\n';
    expect(typeCheck({ "/virtual/mcp.d.ts": declaration, "/virtual/guest.ts": guest })).toEqual([]);
  });
});
