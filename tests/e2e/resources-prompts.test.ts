import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { errorOf, everythingServer, makeHome, ROOT, valueOf, type E2eHome } from "./helpers.js";

/**
 * A server's resources and prompts from guest code (`require("host:mcp-x").resources.read(uri)`),
 * through the whole stack, against our full-feature fixture and the real server-everything.
 */
const FULL = join(ROOT, "tests", "fixtures", "servers", "full-server.mjs");

let home: E2eHome;
let host: McpvmHost;

beforeAll(async () => {
  home = await makeHome({
    servers: {
      full: { command: process.execPath, args: [FULL, "--big-bytes", "4096"], maxResponseBytes: 2048 },
      everything: everythingServer(),
    },
  });
  host = await home.open();
});

afterAll(async () => {
  await host?.close();
  await home?.cleanup();
});

describe("resources and prompts in guest code", () => {
  // What bounds a runaway loop is the run's tool-call budget (docs/MCP.md): a loop of reads or listings
  // reaches the server as often as a loop of tool calls, and was bounded only by the wall limit.
  it("takes each resource and prompt request from the run's tool-call budget", async () => {
    const value = valueOf(
      await host.run(
        `const full = require("host:mcp-full");
         const requests = [() => full.resources.read("test://static-text"), () => full.resources.list(), () => full.prompts.list(), () => full.resources.readAll("test://static-text")];
         let done = 0;
         try { for (let i = 0; i < 50; i++) { requests[i % requests.length](); done++; } } catch (e) { return { done, name: e.name, code: e.code, message: e.message }; }
         return { done };`,
        { limits: { toolCalls: 6 } },
      ),
    );
    expect(value).toEqual({
      done: 6,
      name: "ToolCallLimitError",
      code: "TOOL_CALL_LIMIT",
      message:
        "MCP call to full.prompts.list refused: this call would go over the run's tool-call budget (toolCalls = 6); raise it with `mcpvm run --tool-calls <n>` or config.json limits.toolCalls (6 used so far in this run).",
    });
  });

  it("lists and reads text and binary resources, and resource templates", async () => {
    const result = await host.run(`
      const full = require("host:mcp-full");
      const listed = full.resources.list();
      const text = full.resources.read("test://static-text");
      const png = full.resources.read("test://static-binary");
      const templated = JSON.parse(full.resources.read("test://template/42/data"));
      const parts = full.resources.readAll("test://static-binary");
      return {
        uris: listed.map((r) => r.uri),
        first: listed[0],
        text,
        pngIsBytes: png instanceof Uint8Array,
        pngSignature: Array.from(png.slice(1, 4)).map((c) => String.fromCharCode(c)).join(""),
        templated,
        parts: parts.map((p) => ({ uri: p.uri, mimeType: p.mimeType, bytes: p.blob.length })),
        templates: full.resources.templates().map((t) => t.uriTemplate),
      };
    `);
    const value = valueOf(result) as Record<string, unknown>;
    expect(value.uris).toEqual(["test://static-text", "test://static-binary", "test://watched-resource", "test://big-binary"]);
    expect(value.first).toEqual({ uri: "test://static-text", name: "static-text", title: "Static Text Resource", description: "A static text resource for testing", mimeType: "text/plain" });
    expect(value.text).toBe("This is the content of the static text resource.");
    expect(value.pngIsBytes).toBe(true);
    expect(value.pngSignature).toBe("PNG");
    expect(value.templated).toEqual({ id: "42", templateTest: true, data: "Data for ID: 42" });
    expect(value.parts).toEqual([{ uri: "test://static-binary", mimeType: "image/png", bytes: expect.any(Number) }]);
    expect(value.templates).toEqual(["test://template/{id}/data"]);
  });

  it("lists prompts and gets one with its arguments; a missing required argument is the server's clear error", async () => {
    const result = await host.run(`
      const full = require("host:mcp-full");
      const names = full.prompts.list().map((p) => p.name);
      const filled = full.prompts.get("test_prompt_with_arguments", { arg1: "a", arg2: "b" });
      let missing;
      try { full.prompts.get("test_prompt_with_arguments", { arg1: "a" }); } catch (error) { missing = { name: error.name, code: error.code, message: error.message }; }
      return { names, text: filled.messages[0].content.text, missing };
    `);
    const value = valueOf(result) as { names: string[]; text: string; missing: { name: string; code: string; message: string } };
    expect(value.names).toContain("test_prompt_with_arguments");
    expect(value.text).toBe("Prompt with arguments: arg1='a', arg2='b'");
    expect(value.missing.code).toBe("MCP_REQUEST_REJECTED");
    expect(value.missing.message).toContain('needs argument "arg2"');
  });

  it("refuses an unknown URI, a bad argument and a resource over maxResponseBytes with clear errors", async () => {
    const unknown = errorOf(await host.run('return require("host:mcp-full").resources.read("test://nope");'));
    expect(unknown.message).toContain("test://nope");
    const bad = errorOf(await host.run('return require("host:mcp-full").resources.read(42);'));
    expect(bad).toMatchObject({ name: "McpArgumentError" });
    expect(bad.message).toContain("needs the resource's URI as a string");
    const big = errorOf(await host.run('return require("host:mcp-full").resources.read("test://big-binary");'));
    expect(big).toMatchObject({ name: "McpResourceTooLargeError" });
    expect(big.message).toMatch(/is 4096 bytes, over the server's maxResponseBytes \(2048\); raise "maxResponseBytes" for "full"/);
    // The host and the server carry on.
    expect(valueOf(await host.run('return require("host:mcp-full").resources.read("test://static-text");'))).toBe("This is the content of the static text resource.");
  });

  it("gives server-everything's resources and prompts, and declares them in the module's types", async () => {
    const result = await host.run(`
      const everything = require("host:mcp-everything");
      const resources = everything.resources.list();
      const first = everything.resources.read(resources[0].uri);
      const prompts = everything.prompts.list().map((p) => p.name);
      return { count: resources.length, firstType: typeof first === "string" ? "text" : "bytes", prompts };
    `);
    const value = valueOf(result) as { count: number; firstType: string; prompts: string[] };
    expect(value.count).toBeGreaterThan(0);
    expect(["text", "bytes"]).toContain(value.firstType);
    expect(value.prompts.length).toBeGreaterThan(0);
    const service = await host.requireMcp();
    const declarations = await (await service.catalog("everything")).declarations();
    expect(declarations).toContain("export const resources: {");
    expect(declarations).toContain("export const prompts: {");
  });
});
