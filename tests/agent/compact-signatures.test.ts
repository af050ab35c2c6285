import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/agent/llm/model-config.js";
import { createLanguageModel } from "../../src/agent/llm/provider.js";
import { runTurn } from "../../src/agent/llm/turn.js";
import { buildSystemMessage } from "../../src/agent/system-message.js";
import { buildAgentTools, compactDeclarations, mcpModuleInfo, moduleSummaries } from "../../src/agent/tools/index.js";
import { McpvmHost } from "../../src/host/index.js";
import { ServerCatalog } from "../../src/mcp/service/index.js";
import { CompiledTypesCache } from "../../src/mcp/type-generator/index.js";
import { startScriptedLlmServer, type ChatRequest, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { MEMORY, ROOT, tempHome } from "./repl-driver.js";
import { argumentsFor, readListing, type TypeNode } from "./signature-reader.js";

const LISTINGS = join(ROOT, "tests/fixtures/real-server-tool-listings.json");
const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

function catalogOf(server: string, tools: readonly Tool[]): ServerCatalog {
  return new ServerCatalog({ server, description: undefined, instructions: undefined, trusted: tools, held: [], dropped: [], hiddenByFilters: [], unmatchedFilters: [] }, new CompiledTypesCache());
}

function topLevelMembers(node: TypeNode | undefined): Array<{ name: string; optional: boolean }> {
  if (node === undefined) return [];
  if (node.kind !== "object") throw new Error(`a tool's argument is shown as ${node.kind}, not an object`);
  return node.members.map((m) => ({ name: m.name, optional: m.optional }));
}

describe("compact signatures hold what a correct call needs", () => {
  it("for every tool of five real servers: each parameter with its optionality, and the call written from the line alone passes the tool's own inputSchema", async () => {
    const listings = JSON.parse(await readFile(LISTINGS, "utf8")) as Record<string, Tool[]>;
    let checked = 0;
    for (const [server, tools] of Object.entries(listings)) {
      const catalog = catalogOf(server, tools);
      const listing = readListing(compactDeclarations(catalog));
      expect([...listing.functions.keys()], server).toEqual(catalog.tools.map((t) => t.jsName));
      for (const tool of catalog.tools) {
        const schema = tool.definition.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
        const shown = topLevelMembers(listing.functions.get(tool.jsName)?.input);
        const expected = Object.keys(schema.properties ?? {}).map((name) => ({ name, optional: !(schema.required ?? []).includes(name) }));
        expect(shown, `${server}.${tool.jsName}`).toEqual(expected);
        const args = argumentsFor(listing, tool.jsName);
        expect(tool.validator.check(args), `${server}.${tool.jsName}(${JSON.stringify(args)})`).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBe(63);
  });

  it("a big module (github's 26 tools, signatures over 3,000 characters) gets names and summaries, and says how to get signatures", async () => {
    const listings = JSON.parse(await readFile(LISTINGS, "utf8")) as Record<string, Tool[]>;
    const catalog = catalogOf("github", listings.github ?? []);
    expect(compactDeclarations(catalog).length).toBeGreaterThan(3_000);
    const info = await mcpModuleInfo(catalog, []);
    expect(info).toContain("create_issue — Create a new issue in a GitHub repository");
    expect(info).not.toContain("create_issue(");
    expect(info).toContain("module_info {name, query} gives matching signatures, {name, tools: [...]} full declarations.");
  });

  it("docs/USAGE.md shows server-memory's module_info as the model gets it", async () => {
    const listings = JSON.parse(await readFile(LISTINGS, "utf8")) as Record<string, Tool[]>;
    const info = await mcpModuleInfo(catalogOf("memory", listings.memory ?? []), []);
    const usage = await readFile(join(ROOT, "docs/USAGE.md"), "utf8");
    const block = /<!-- example: covered by=tests\/agent\/compact-signatures\.test\.ts -->\n```\n([\s\S]*?)```/.exec(usage)?.[1];
    expect(block, "docs/USAGE.md has no compact-signature example").toBeDefined();
    const lines = (block as string).split("\n").filter((l) => l !== "" && l !== "…");
    for (const line of lines) expect(info.split("\n"), line).toContain(line);
  });
});

describe("a model that has never seen a server discovers a function and calls it correctly, reading only module_info (fake LLM, real servers)", () => {
  let host: McpvmHost | undefined;
  let llm: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const config = {
      plugins: { mcp: { enabled: true } },
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        // Writes are allowed without asking: nobody is at a terminal here.
        memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(home.dir, "memory.jsonl") }, confirm: "never" },
      },
    };
    await writeFile(join(home.dir, "config.json"), JSON.stringify(config));
    host = await McpvmHost.open({ env: { MCPVM_HOME: home.dir, PATH: process.env.PATH ?? "" }, engine: "quickjs" });
    await host.plugins.approve("mcp");
    await host.reload();
    for (const server of ["everything", "memory"]) await (await host.requireMcp()).approve(server);
  }, 30_000);

  afterAll(async () => {
    await llm?.close();
    await host?.close();
    await cleanup?.();
  });

  /** The text of the last tool result the model was sent (a string result arrives as JSON text of a string). */
  function lastToolOutput(request: ChatRequest): string {
    const content = String([...request.messages].reverse().find((m) => m.role === "tool")?.content ?? "");
    try {
      const parsed: unknown = JSON.parse(content);
      return typeof parsed === "string" ? parsed : content;
    } catch {
      return content;
    }
  }

  async function turn(userMessage: string, script: Parameters<typeof startScriptedLlmServer>[0]): Promise<{ text: string; requests: ChatRequest[] }> {
    await llm?.close();
    llm = await startScriptedLlmServer(script);
    const h = host as McpvmHost;
    const agent = buildAgentTools({ host: h, person: { canAsk: false, confirm: async () => false }, runLimits: () => ({}) });
    const result = await runTurn({
      model: createLanguageModel(resolveModel(undefined, { MCPVM_MODEL: "openai-compatible:test-model", MCPVM_BASE_URL: llm.url })),
      system: buildSystemMessage({ modules: await moduleSummaries(h), mcpEnabled: true }),
      history: [],
      userMessage,
      maxSteps: 6,
      tools: agent.tools,
      activeTools: () => agent.activeToolNames(),
    });
    return { text: result.text, requests: llm.requests };
  }

  it("searches, reads the module's signatures, writes the call from them, and gets the server's answer", async () => {
    let module = "";
    let fn = "";
    let code = "";
    const { text, requests } = await turn("What is 2 + 3? Use a tool.", [
      { toolCalls: [{ name: "module_info", arguments: { query: "add two numbers sum" } }] },
      (request) => {
        const best = (JSON.parse(lastToolOutput(request)) as { results: Array<{ module: string; signature: string }> }).results[0];
        module = (best?.module ?? "").replace(/^host:/, "");
        fn = /^(\w+)\(/.exec(best?.signature ?? "")?.[1] ?? "";
        return { toolCalls: [{ name: "module_info", arguments: { name: module } }] };
      },
      (request) => {
        const args = argumentsFor(readListing(lastToolOutput(request)), fn, { a: 2, b: 3 });
        code = `const m = require("host:${module}");\nreturn m.${fn}(${JSON.stringify(args)});`;
        return { toolCalls: [{ name: "execute_javascript", arguments: { code } }] };
      },
      (request) => ({ text: `The tool said: ${lastToolOutput(request)}` }),
    ]);
    const searched = JSON.parse(lastToolOutput(requests[1] as ChatRequest)) as { results: Array<{ signature: string }> };
    expect(searched.results[0]?.signature).toBe("get_sum({a: number, b: number})");
    expect(module).toBe("mcp-everything");
    expect(fn).toBe("get_sum");
    expect(code).toContain('m.get_sum({"a":2,"b":3})');
    // The module_info answer the model read is the compact form, with the call line first.
    const info = lastToolOutput(requests[2] as ChatRequest);
    expect(info.split("\n")[0]).toBe('const m = require("host:mcp-everything"); m.fn({…}) is synchronous; m.$batch("fn", [args…]) runs calls in parallel → [{ok, value} | {ok: false, error}].');
    expect(info).toContain("get_sum({a: number, b: number}) — Returns the sum of two numbers");
    // server-everything offers resources and prompts beside its tools: one line says how to reach them.
    expect(info).toContain("Also m.resources: list() → [{uri, name, description?, mimeType?}], read(uri) → string | Uint8Array, readAll(uri), templates(); m.prompts: list()");
    expect(text).toMatch(/The tool said: .*5/);
    expect(text).not.toMatch(/error|Invalid/i);
  }, 60_000);

  it("module_info {name, query} searches that module only; {name, tools} gives full declarations and says which names it does not know", async () => {
    const h = host as McpvmHost;
    const { tools } = buildAgentTools({ host: h, person: { canAsk: false, confirm: async () => false }, runLimits: () => ({}) });
    const call = async (input: unknown) => (await tools.module_info?.execute?.(input, { toolCallId: "t", messages: [] })) as unknown;
    const found = (await call({ name: "mcp-memory", query: "entities" })) as { results: Array<{ module: string; signature: string }> };
    expect(found.results.length).toBeGreaterThan(0);
    expect(new Set(found.results.map((r) => r.module))).toEqual(new Set(["host:mcp-memory"]));
    const full = String(await call({ name: "host:mcp-everything", tools: ["get_sum", "nope"] }));
    expect(full).toContain('declare module "host:mcp-everything"');
    expect(full).toContain("get_sum");
    expect(full).not.toContain("echo(");
    expect(full).toContain("Not in host:mcp-everything: nope.");
  }, 60_000);

  it("builds nested arguments through a named type (type Entity = …) and the server stores them", async () => {
    const { text } = await turn("Remember that Ada wrote the first program.", [
      { toolCalls: [{ name: "module_info", arguments: { name: "mcp-memory" } }] },
      (request) => {
        const listing = readListing(lastToolOutput(request));
        expect(listing.aliases.has("Entity")).toBe(true);
        const args = argumentsFor(listing, "create_entities", { name: "Ada", entityType: "person", observations: ["wrote the first program"] });
        const code = `const m = require("host:mcp-memory");\nm.create_entities(${JSON.stringify(args)});\nreturn m.read_graph().entities;`;
        return { toolCalls: [{ name: "execute_javascript", arguments: { code } }] };
      },
      (request) => ({ text: `Stored: ${lastToolOutput(request)}` }),
    ]);
    expect(text).toContain('"name":"Ada"');
    expect(text).toContain('"entityType":"person"');
    expect(text).toContain("wrote the first program");
  }, 60_000);
});
