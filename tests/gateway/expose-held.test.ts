import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { fixtureServer, makeHome, waitFor, type TestHome } from "./helpers.js";

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
      await expect(again.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602, data: { code: "GATEWAY_TOOL_UNKNOWN" } });
    } finally {
      await again.close();
    }
  }, 60_000);
});

/**
 * `--expose`: the exposed server's tool list changing under a connected client (its own
 * list_changed, here a changed `echo` held and a new `added_tool` held) reaches the client as
 * notifications/tools/list_changed, as GATEWAY.md promises for every client.
 */
describe("--expose: the upstream's tools/list_changed reaches connected clients", () => {
  let home: TestHome;
  let startsDir: string;
  let running: RunningGateway | undefined;

  beforeAll(async () => {
    startsDir = await mkdtemp(join(tmpdir(), "mcpvm-expose-lc-"));
    // list-changed: after its first call the fixture changes echo, adds added_tool and says so.
    home = await makeHome({ servers: { fx: fixtureServer(join(startsDir, "starts.txt"), "--mode list-changed") } });
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
    await rm(startsDir, { recursive: true, force: true });
  });

  it("sends notifications/tools/list_changed, and the next listing no longer offers the held echo", async () => {
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "fx", logLevel: "silent" });
    const client = new Client({ name: "expose-list-changed", version: "1" });
    let changed = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => void (changed += 1));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
      await client.callTool({ name: "echo", arguments: { text: "first" } });
      await waitFor(() => changed > 0, 5_000, "notifications/tools/list_changed");
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain("echo");
      expect(names).not.toContain("added_tool");
    } finally {
      await client.close();
    }
  }, 60_000);
});
