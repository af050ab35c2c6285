import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { everythingServer, firstText, jsonOf, makeHome, ROOT, type TestHome } from "./helpers.js";

const run = promisify(execFile);
const INSPECTOR = join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const ARCHITECTURE = "demo://resource/static/document/architecture.md";

/** Real servers we did not write (server-everything, server-filesystem) and a real client (MCP Inspector's CLI) through the gateway. */
describe("real servers and a real client through the gateway", () => {
  let home: TestHome;
  let running: RunningGateway;
  let files: string;

  beforeAll(async () => {
    files = await mkdtemp(join(tmpdir(), "mcpvm-fs-"));
    await writeFile(join(files, "note.txt"), "hello from the filesystem server\n");
    home = await makeHome({ servers: { everything: everythingServer(), filesystem: { command: process.execPath, args: [FILESYSTEM, files] } } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  async function inspector(...args: string[]): Promise<unknown> {
    // It finds its own package.json relative to the working directory (build/../package.json).
    const { stdout } = await run(process.execPath, [INSPECTOR, running.url as string, "--transport", "http", ...args], { timeout: 60_000, cwd: dirname(INSPECTOR) });
    return JSON.parse(stdout) as unknown;
  }

  it("MCP Inspector's CLI reads a resource of server-everything and gets one of its prompts", async () => {
    const read = (await inspector("--method", "resources/read", "--uri", ARCHITECTURE)) as { contents: Array<{ uri: string; text?: string }> };
    expect(read.contents[0]?.uri).toBe(ARCHITECTURE);
    expect(read.contents[0]?.text?.length ?? 0).toBeGreaterThan(20);
    const prompt = (await inspector("--method", "prompts/get", "--prompt-name", "everything_args_prompt", "--prompt-args", "city=Paris")) as {
      messages: Array<{ content: { text?: string } }>;
    };
    expect(prompt.messages[0]?.content.text).toContain("Paris");
  }, 120_000);

  it("an SDK client: server-everything's resources, templates, prompts and completion; server-filesystem (tools only) leaves the lists intact", async () => {
    const client = new Client({ name: "real", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    try {
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      expect(uris).toContain(ARCHITECTURE);
      expect((await client.listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toEqual(expect.arrayContaining(["everything_simple_prompt", "everything_args_prompt", "everything_completable_prompt"]));
      const completion = await client.complete({ ref: { type: "ref/prompt", name: "everything_completable_prompt" }, argument: { name: "department", value: "" } });
      expect(completion.completion.values.length).toBeGreaterThan(0);
      // server-filesystem end to end through run_mcp_script.
      const script = `const fs = require("host:mcp-filesystem"); return fs.read_text_file({ path: ${JSON.stringify(join(files, "note.txt"))} });`;
      const result = jsonOf<{ result: unknown }>(await client.callTool({ name: "run_mcp_script", arguments: { script } }));
      expect(JSON.stringify(result.result)).toContain("hello from the filesystem server");
      expect(firstText(await client.callTool({ name: "list_mcp_tools", arguments: { server: "filesystem" } }))).toContain("read_text_file");
    } finally {
      await client.close();
    }
  });
});
