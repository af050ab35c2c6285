import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import type { Tool } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { builtinToolDefinitions } from "../../src/gateway/builtin-tools.js";
import { LISTING_FULL_MAX_CHARS, listingText } from "../../src/gateway/listing.js";
import { ServerCatalog } from "../../src/mcp/service/index.js";
import { CompiledTypesCache } from "../../src/mcp/type-generator/index.js";

const listings = JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", "real-server-tool-listings.json"), "utf8")) as Record<string, Tool[]>;

function catalogOf(server: string): ServerCatalog {
  return new ServerCatalog(
    { server, description: undefined, instructions: undefined, trusted: listings[server] ?? [], held: [], dropped: [], hiddenByFilters: [], unmatchedFilters: [] } as never,
    new CompiledTypesCache(),
  );
}

describe("list_mcp_tools text", () => {
  const servers = ["everything", "memory", "filesystem"];

  it("with no arguments: one line per tool of a big module, each with its summary, and how to get more", async () => {
    const catalogs = servers.map(catalogOf);
    const text = await listingText(catalogs, {});
    for (const catalog of catalogs) {
      expect((await catalog.declarations()).length).toBeGreaterThan(LISTING_FULL_MAX_CHARS);
      expect(text).toContain(`// require("host:${catalog.module}")`);
      for (const tool of catalog.tools) expect(text).toMatch(new RegExp(`^${tool.jsName}\\(`, "m"));
    }
    expect(text).toContain("echo({message: string}) — Echoes back the input string");
    expect(text).toContain("get_env() — Returns all environment variables");
    expect(text).not.toMatch(/: unknown\b/);
    expect(text).toContain('list_mcp_tools {"server": "<name>"} gives full declarations');
  });

  it("with server: that module's full declarations; with query: the matching tools", async () => {
    const memory = catalogOf("memory");
    expect(await listingText([memory], { server: "memory" })).toBe(await memory.declarations());
    const queried = await listingText(servers.map(catalogOf), { query: "sum two numbers" });
    expect(queried.split("\n")[1]).toMatch(/^get_sum\(/);
    expect(await listingText(servers.map(catalogOf), { query: "zzzz qqqq" })).toBe('// No tool matches "zzzz qqqq".');
  });

  it("a small module is listed in full", async () => {
    const small = catalogOf("sequential-thinking");
    const full = await small.declarations();
    if (full.length > LISTING_FULL_MAX_CHARS) expect(await listingText([small], {})).toContain("One line per tool");
    else expect(await listingText([small], {})).toBe(full.trimEnd());
  });

  it("compact signatures, as the agent's module_info: every parameter, whole return types, shared object types named once per module", async () => {
    const text = await listingText(servers.map(catalogOf), {});
    const memory = text.slice(text.indexOf('// require("host:mcp-memory")'), text.indexOf('// require("host:mcp-filesystem")'));
    expect(memory).toContain("type Entity = {name: string, entityType: string, observations: string[]}");
    expect(memory).toContain("read_graph(): {entities: Entity[], relations: Relation[]} — Read the entire knowledge graph");
    expect(text).toContain("Unless shown, functions return {content: string}.");
    expect(text).not.toContain("…)");
  });

  it("tokens (o200k_base): gateway tool definitions + list_mcp_tools {} stay at or under 30% of the raw tools/list of 36 tools", async () => {
    const enc = getEncoding("o200k_base");
    const raw = enc.encode(JSON.stringify({ tools: servers.flatMap((s) => listings[s] ?? []) })).length;
    const ours = enc.encode(JSON.stringify({ tools: builtinToolDefinitions({ serverNote: "" }) })).length + enc.encode(await listingText(servers.map(catalogOf), {})).length;
    expect(ours / raw).toBeLessThanOrEqual(0.3);
  });
});
