import { describe, it, expect } from "vitest";
import {
  buildModuleMetadata,
  CompiledTypesCache,
  generateDeclarations,
  generateModuleDeclaration,
} from "../../../src/mcp/type-generator/index.js";
import { loadListing, SERVER_NAMES } from "./fixture-tools.js";
import { typeCheck } from "./ts-check.js";

const servers = SERVER_NAMES.map((serverName) => ({ serverName, tools: loadListing(serverName) }));

/** Guest code in the style of both halves of the guest contract, checked against the declarations. */
const usage = [
  'import * as memory from "host:mcp-memory";',
  'import * as gh from "host:mcp-github";',
  'import * as everything from "host:mcp-everything";',
  'const created = memory.create_entities({ entities: [{ name: "a", entityType: "t", observations: [] }] });',
  "export const names: string[] = created.entities.map((entity) => entity.name);",
  "export const graph = memory.read_graph();",
  'export const batch = gh.$batch("get_issue", [{ owner: "o", repo: "r", issue_number: 1 }], { concurrency: 4 });',
  "export const first = batch[0]?.ok === true ? batch[0].value : undefined;",
  'export const weather: Promise<number> = tools.everything.get_structured_content({ location: "Chicago" }).then((result) => result.temperature);',
  'export const thought = tools["sequential-thinking"].sequentialthinking;',
  'export const sum = everything.get_sum({ a: 1, b: 2 });',
  "",
].join("\n");

describe("the five real server listings", () => {
  it("all generate declarations that the TypeScript compiler accepts, with the tools global and guest usage", async () => {
    const declarations = await generateDeclarations(servers, { cache: new CompiledTypesCache() });

    for (const { serverName } of servers) expect(declarations).toContain(`declare module "host:mcp-${serverName}" {`);
    expect(declarations).toContain("declare const tools: {");
    expect(typeCheck({ "/virtual/mcp.d.ts": declarations, "/virtual/guest.ts": usage })).toEqual([]);
  });

  it("a misuse of the generated types is reported by the compiler (the check can fail)", async () => {
    const declarations = await generateDeclarations(servers, { cache: new CompiledTypesCache() });
    const wrong = 'import * as memory from "host:mcp-memory";\nmemory.create_entities({ entities: "nope" });\nexport {};\n';

    expect(typeCheck({ "/virtual/mcp.d.ts": declarations, "/virtual/guest.ts": wrong })).toHaveLength(1);
  });

  it("declares every github tool with its input type and no output schema as unknown", async () => {
    const github = await generateModuleDeclaration("github", loadListing("github"), { cache: new CompiledTypesCache() });

    expect(github.match(/^ {2}export function (?!\$batch)/gm)).toHaveLength(26);
    expect(github.match(/^ {2}export function \$batch\(/gm)).toHaveLength(26);
    expect(github).toContain("  export type ListIssuesOutput = unknown\n");
    expect(github).toContain("  export function list_issues(input: ListIssuesInput, options?: CallOptions): ListIssuesOutput;\n");
  });

  it("gives every tool of every listing a summary within 120 characters and a one-line signature", () => {
    for (const { serverName, tools } of servers) {
      const metadata = buildModuleMetadata(serverName, tools);
      expect(metadata.module).toBe(`mcp-${serverName}`);
      expect(metadata.tools).toHaveLength(tools.length);
      for (const tool of metadata.tools) {
        expect(tool.summary.length).toBeLessThanOrEqual(120);
        expect(tool.signature).not.toContain("\n");
        expect(tool.signature.startsWith(`${tool.jsName}(input`)).toBe(true);
      }
    }
  });
});
