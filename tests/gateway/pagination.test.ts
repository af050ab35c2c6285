import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { makeHome, ROOT, type TestHome } from "./helpers.js";

/**
 * Lists over 100 entries, paginated upstream (150 tools, resources, templates and prompts, 40 a
 * page): mcpvm follows every page for guest code and for the gateway, and the gateway answers its
 * own clients in one page (no nextCursor) — so a cursor sent to it was never one it gave out.
 */
const PAGED = join(ROOT, "tests/fixtures/servers/paged-server.mjs");

describe("pagination of upstream lists, through guest code and the gateway", () => {
  let home: TestHome;
  let running: RunningGateway;
  let client: Client;

  beforeAll(async () => {
    home = await makeHome({ servers: { paged: { command: process.execPath, args: [PAGED, "--count", "150", "--page-size", "40"] } } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
    client = new Client({ name: "pagination", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
  });

  afterAll(async () => {
    await client?.close();
    await running?.close();
    await home?.cleanup();
  });

  it("guest code sees every tool, resource, template and prompt, and can use the last of each", async () => {
    const script = `
      const p = require("host:mcp-paged");
      const tools = Object.keys(p).filter((k) => k.startsWith("tool_"));
      return { tools: tools.length, last: p.tool_150({}), resources: p.resources.list().length, templates: p.resources.templates().length,
               prompts: p.prompts.list().length, read: p.resources.read("paged://template-150/k"), prompt: p.prompts.get("prompt_150").messages[0].content.text };`;
    const result = await client.callTool({ name: "run_mcp_script", arguments: { script } });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text).result).toEqual({
      tools: 150,
      last: "150",
      resources: 150,
      templates: 150,
      prompts: 150,
      read: "template 150 key k",
      prompt: "Prompt number 150.",
    });
  }, 60_000);

  it("the gateway's own lists hold every entry in one page, and route to the last page's entries", async () => {
    const resources = await client.listResources();
    expect(resources.resources).toHaveLength(150);
    expect(resources.nextCursor).toBeUndefined();
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(150);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toContain("paged_prompt_150");
    expect(prompts.nextCursor).toBeUndefined();
    expect((await client.readResource({ uri: "paged://template-150/x" })).contents[0]).toMatchObject({ text: "template 150 key x" });
    expect((await client.getPrompt({ name: "paged_prompt_150" })).messages[0]?.content).toEqual({ type: "text", text: "Prompt number 150." });
    const search = await client.callTool({ name: "search_tools", arguments: { query: "number 150" } });
    expect(JSON.parse((search.content as Array<{ text: string }>)[0]!.text).results[0]).toMatchObject({ tool: "paged.tool_150" });
  }, 60_000);

  it("a cursor the gateway never gave out is refused (-32602), not answered with the first page again", async () => {
    for (const list of [
      () => client.listResources({ cursor: "bogus" }),
      () => client.listResourceTemplates({ cursor: "bogus" }),
      () => client.listPrompts({ cursor: "bogus" }),
      () => client.listTools({ cursor: "bogus" }),
    ]) {
      await expect(list()).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/one page.*without a cursor/) });
    }
  }, 60_000);
});
