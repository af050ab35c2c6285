import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { childPids, errorOf, everythingServer, filesystemServer, fixtureServer, makeHome, memoryServer, valueOf, type E2eHome } from "./helpers.js";

/**
 * Guest code in the sandbox against the real reference servers from npm, through the whole stack:
 * config.json -> mcp plugin -> approval -> client manager -> catalog -> host:mcp-<name> -> QuickJS.
 * One host serves every test here (servers stay up between runs, as in a REPL session).
 */

// A 1x1 PNG for server-filesystem to read back.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let home: E2eHome;
let host: McpvmHost;
let files: string;
let memoryFile: string;
const childrenBefore = childPids().length;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      everything: everythingServer(),
      memory: memoryServer(join(dir, "memory.jsonl")),
      filesystem: filesystemServer(join(dir, "files")),
      // Our fixture, listing 20 tools in pages of 4.
      pages: fixtureServer(join(dir, "pages.starts"), "--page-size 4 --extra-tools 10"),
    }),
  });
  files = join(home.dir, "files");
  memoryFile = join(home.dir, "memory.jsonl");
  mkdirSync(files);
  writeFileSync(join(files, "notes.txt"), "first line\nsecond line\n");
  writeFileSync(join(files, "dot.png"), PNG);
  host = await home.open();
});

afterAll(async () => {
  await host?.close();
  await home?.cleanup();
  expect(childPids()).toHaveLength(childrenBefore);
});

describe("calling real npm MCP servers from guest code", () => {
  it("calls look synchronous with require: server-memory creates and reads back entities", async () => {
    const result = await host.run(`
      const memory = require("host:mcp-memory");
      memory.create_entities({ entities: [{ name: "mcpvm", entityType: "project", observations: ["runs guest code"] }] });
      memory.add_observations({ observations: [{ entityName: "mcpvm", contents: ["calls MCP servers"] }] });
      const graph = memory.read_graph({});
      return graph.entities.map((e) => ({ name: e.name, observations: e.observations }));
    `);
    expect(valueOf(result)).toEqual([{ name: "mcpvm", observations: ["runs guest code", "calls MCP servers"] }]);
    // The server really wrote its file: the guest's calls reached the process.
    expect(readFileSync(memoryFile, "utf8")).toContain("calls MCP servers");
  });

  it("supports import syntax, default and named, with names sanitised for JavaScript", async () => {
    const result = await host.run(`
      import everything from "host:mcp-everything";
      import { get_sum, echo } from "host:mcp-everything";
      return { sum: get_sum({ a: 2, b: 3 }), echo: echo({ message: "hi" }), same: everything.echo === echo };
    `);
    expect(valueOf(result)).toEqual({ sum: "The sum of 2 and 3 is 5.", echo: "Echo: hi", same: true });
  });

  it("runs calls of several servers concurrently through the tools global and Promise.all", async () => {
    const result = await host.run(`
      const [sum, graph, dir] = await Promise.all([
        tools.everything.get_sum({ a: 20, b: 22 }),
        tools.memory.search_nodes({ query: "mcpvm" }),
        tools.filesystem.list_directory({ path: ${JSON.stringify(files)} }),
      ]);
      require("host:mcp-pages"); // started before the clock starts
      const started = Date.now();
      const slept = await Promise.all([1, 2, 3, 4].map(() => tools.pages.sleep({ ms: 1000 })));
      return { sum, names: graph.entities.map((e) => e.name), dir, slept, elapsed: Date.now() - started };
    `);
    const value = valueOf(result) as { sum: string; names: string[]; dir: { content: string }; slept: string[]; elapsed: number };
    expect(value.sum).toBe("The sum of 20 and 22 is 42.");
    expect(value.names).toEqual(["mcpvm"]);
    expect(value.dir.content).toContain("[FILE] notes.txt");
    expect(value.slept).toEqual(["slept 1000", "slept 1000", "slept 1000", "slept 1000"]);
    // Four 1 s calls overlapped: one after the other they take 4 s.
    expect(value.elapsed).toBeLessThan(3_000);
  });

  it("runs more concurrent calls than Node's default listener limit without a MaxListenersExceededWarning", async () => {
    // Seen in the field: `mcpvm run` of a Promise.all over 12 tool calls printed Node's "Possible
    // EventTarget memory leak detected. 11 abort listeners added to [AbortSignal]" on the terminal.
    // Node 20 only: Node 22 (node_modules/.bin/node, which `npx vitest` picks up) sets no limit on
    // AbortSignals, so there this passes either way; `node node_modules/vitest/vitest.mjs` runs Node 20.
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const result = await host.run(`
        const echoes = await Promise.all(Array.from({ length: 24 }, (_, i) => tools.everything.echo({ message: "m" + i })));
        return echoes.filter((text, i) => text === "Echo: m" + i).length;
      `);
      expect(valueOf(result)).toBe(24);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  });

  it("returns structuredContent as a plain object when the tool declares an outputSchema", async () => {
    const result = await host.run(`
      const fs = require("host:mcp-filesystem");
      return {
        weather: require("host:mcp-everything").get_structured_content({ location: "Chicago" }),
        file: fs.read_text_file({ path: ${JSON.stringify(join(files, "notes.txt"))}, head: 1 }),
      };
    `);
    expect(valueOf(result)).toEqual({
      weather: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
      file: { content: "first line" },
    });
  });

  it("gives images to the guest as { mimeType, data: Uint8Array }", async () => {
    const result = await host.run(`
      const items = require("host:mcp-everything").get_tiny_image({});
      const image = items.find((item) => item && item.mimeType === "image/png");
      const signature = String.fromCharCode(image.data[1], image.data[2], image.data[3]);
      return { count: items.length, isBytes: image.data instanceof Uint8Array, signature, size: image.data.length };
    `);
    const value = valueOf(result) as { count: number; isBytes: boolean; signature: string; size: number };
    expect(value).toMatchObject({ count: 3, isBytes: true, signature: "PNG" });
    expect(value.size).toBeGreaterThan(60);
  });

  it("prefers structuredContent over content items: server-filesystem's image arrives as its declared base64 object", async () => {
    const result = await host.run(`return require("host:mcp-filesystem").read_media_file({ path: ${JSON.stringify(join(files, "dot.png"))} });`);
    expect(valueOf(result)).toEqual({ content: [{ type: "image", mimeType: "image/png", data: PNG.toString("base64") }] });
  });

  it("throws a guest McpToolError naming server and tool when the tool reports isError", async () => {
    const outside = join(home.dir, "..", "not-allowed.txt");
    const result = await host.run(`
      try {
        require("host:mcp-filesystem").read_text_file({ path: ${JSON.stringify(outside)} });
        return "no error";
      } catch (error) {
        return { isError: error instanceof Error, name: error.name, code: error.code, message: error.message };
      }
    `);
    const value = valueOf(result) as { isError: boolean; name: string; code: string; message: string };
    expect(value).toMatchObject({ isError: true, name: "McpToolError", code: "MCP_TOOL_ERROR" });
    expect(value.message).toContain("filesystem.read_text_file");
    expect(value.message).toMatch(/outside allowed directories|Access denied/);
  });

  it("rejects invalid arguments on the host, before anything is sent, with McpInvalidArgumentsError", async () => {
    const result = await host.run(`
      const out = [];
      for (const call of [
        () => require("host:mcp-everything").get_sum({ a: "one", b: 2 }),
        () => require("host:mcp-memory").create_entities({ entities: "not a list" }),
        () => require("host:mcp-everything").get_structured_content({ location: "Paris" }),
      ]) {
        try { call(); out.push("sent"); } catch (error) { out.push({ name: error.name, code: error.code, message: error.message }); }
      }
      return out;
    `);
    const value = valueOf(result) as { name: string; code: string; message: string }[];
    expect(value.map((v) => v.name)).toEqual(["McpInvalidArgumentsError", "McpInvalidArgumentsError", "McpInvalidArgumentsError"]);
    expect(value.map((v) => v.code)).toEqual(["MCP_INVALID_ARGUMENTS", "MCP_INVALID_ARGUMENTS", "MCP_INVALID_ARGUMENTS"]);
    expect(value[0]?.message).toMatch(/^invalid arguments for everything\.get-sum \(nothing was sent to the server\): a: /);
    expect(value[1]?.message).toContain("memory.create_entities");
    expect(value[2]?.message).toContain("location");
  });

  it("runs a $batch with results in order and a per-item error that does not stop the others", async () => {
    const result = await host.run(`
      const everything = require("host:mcp-everything");
      return everything.$batch("get_sum", [{ a: 1, b: 2 }, { a: "x", b: 1 }, { a: 3, b: 4 }], { concurrency: 2 });
    `);
    const items = valueOf(result) as { ok: boolean; value?: unknown; error?: { name: string; message: string } }[];
    expect(items).toHaveLength(3);
    expect(items[0]).toEqual({ ok: true, value: "The sum of 1 and 2 is 3." });
    expect(items[1]).toMatchObject({ ok: false, error: { name: "McpInvalidArgumentsError" } });
    expect(items[1]?.error?.message).toContain("everything.get-sum");
    expect(items[2]).toEqual({ ok: true, value: "The sum of 3 and 4 is 7." });
  });

  it("carries a server's isError inside a $batch item as McpToolError", async () => {
    const result = await host.run(`
      return require("host:mcp-filesystem").$batch("get_file_info", [
        { path: ${JSON.stringify(join(files, "notes.txt"))} },
        { path: ${JSON.stringify(join(files, "missing.txt"))} },
      ]);
    `);
    const items = valueOf(result) as { ok: boolean; value?: { content: string }; error?: { name: string; message: string } }[];
    expect(items[0]?.ok).toBe(true);
    expect(items[0]?.value?.content).toContain("size: 23");
    expect(items[1]).toMatchObject({ ok: false, error: { name: "McpToolError" } });
    expect(items[1]?.error?.message).toContain("filesystem.get_file_info");
  });

  it("follows tools/list pagination: every page's tools are callable", async () => {
    const result = await host.run(`
      const pages = require("host:mcp-pages");
      return { names: Object.keys(pages).filter((n) => n.startsWith("tool_")), last: pages.tool_010({}) };
    `);
    const value = valueOf(result) as { names: string[]; last: string };
    expect(value.names).toEqual(["tool_001", "tool_002", "tool_003", "tool_004", "tool_005", "tool_006", "tool_007", "tool_008", "tool_009", "tool_010"]);
    expect(value.last).toBe("tool_010");
  });

  it("names the available tools when the guest asks for one that does not exist", async () => {
    const viaBatch = errorOf(await host.run(`return require("host:mcp-memory").$batch("drop_database", [{}])[0];`));
    expect(viaBatch.message).toMatch(/server "memory" has no tool "drop_database" \(its tools: .*read_graph/);
    const viaTools = errorOf(await host.run(`await tools.memory.drop_database({});`));
    expect(viaTools.message).toContain('server "memory" has no tool "drop_database"');
    expect(viaTools.message).toContain("read_graph");
  });
});
