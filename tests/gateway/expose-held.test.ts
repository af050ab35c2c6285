import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { fixtureServer, makeHome, type TestHome } from "./helpers.js";

/**
 * `mcpvm serve --expose <server>`: a tool held from the gateway's first listing (here changed since
 * it was pinned) is refused as held (MCP_TOOL_HELD, with the command that accepts it), not as an
 * unknown tool of a gateway with "no toolset equipped".
 */
describe("--expose: a held tool is named as held", () => {
  let home: TestHome;
  let startsDir: string;
  const running: RunningGateway[] = [];

  const connect = async (gateway: RunningGateway): Promise<Client> => {
    const client = new Client({ name: "expose-held", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url as string)));
    return client;
  };
  const start = async (): Promise<RunningGateway> => {
    const gateway = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "fx", logLevel: "silent" });
    running.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    startsDir = await mkdtemp(join(tmpdir(), "mcpvm-expose-held-"));
    // rug-pull: from its second start on, the fixture lists echo with another description.
    home = await makeHome({ servers: { fx: fixtureServer(join(startsDir, "starts.txt"), "--mode rug-pull") } });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map((g) => g.close()));
    await home?.cleanup();
    await rm(startsDir, { recursive: true, force: true });
  });

  it("a tool changed since its pin is refused with MCP_TOOL_HELD and the way to accept it", async () => {
    const first = await start();
    const client = await connect(first);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
    await client.close();
    await first.close();

    const second = await start();
    const again = await connect(second);
    try {
      expect((await again.listTools()).tools.map((t) => t.name)).not.toContain("echo");
      const held = await again.callTool({ name: "echo", arguments: { text: "x" } });
      expect(held.isError).toBe(true);
      const text = JSON.stringify(held.content);
      expect(text).toContain("MCP_TOOL_HELD");
      expect(text).toContain("mcpvm mcp");
      expect(text).not.toContain("no toolset is equipped");
      const unknown = await again.callTool({ name: "no_such_tool", arguments: {} });
      expect(JSON.stringify(unknown.content)).toContain("GATEWAY_TOOL_UNKNOWN");
    } finally {
      await again.close();
    }
  }, 60_000);
});
