import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { runCli } from "../../src/cli/main.js";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { everythingServer, makeHome, memoryServer, type TestHome } from "./helpers.js";

const TOKEN = "gateway-token-0123456789abcdef";

/**
 * The code-mode tools' descriptions name the servers a client can use and those waiting for
 * approval. A client token limited to some servers (or to a toolset) is told of those only: the
 * names of the others, and the approval state of the team's other servers, are not its business.
 */
describe("what a limited client token is told of the other servers", () => {
  let home: TestHome;
  let running: RunningGateway;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const memoryDir = await mkdtemp(join(tmpdir(), "mcpvm-gw-memory-"));
    home = await makeHome({
      servers: { everything: everythingServer(), memory: memoryServer(memoryDir), "payroll-db": { command: process.execPath, args: ["-e", ""] } },
      approve: ["everything", "memory"],
    });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "echo-only", tools: ["everything.echo"] });
    for (const [name, ...flags] of [["alice", "--servers", "memory"], ["bob", "--toolset", "echo-only"]]) {
      const io = captureIo(home.env);
      expect(await runCli(["gateway", "token", "create", name as string, ...flags], io), io.stderrText()).toBe(0);
      tokens[name as string] = io.stdoutText().trim();
    }
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", pretty: false });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  async function descriptions(token: string): Promise<string> {
    const client = new Client({ name: "reach", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      return (await client.listTools()).tools.map((t) => t.description ?? "").join("\n");
    } finally {
      await client.close();
    }
  }

  it("names every server, and the one waiting for approval, to the gateway token", async () => {
    const text = await descriptions(TOKEN);
    expect(text).toContain("MCP servers available: everything, memory.");
    expect(text).toContain("payroll-db is not approved");
  });

  it("names only the client's own servers to a token limited to servers or to a toolset", async () => {
    const alice = await descriptions(tokens.alice as string);
    expect(alice).toContain("MCP servers available: memory.");
    expect(alice).not.toContain("payroll-db");
    expect(alice).not.toContain("everything");
    const bob = await descriptions(tokens.bob as string);
    expect(bob).toContain("MCP servers available: everything.");
    expect(bob).not.toContain("payroll-db");
    expect(bob).not.toContain("memory");
  });
});
