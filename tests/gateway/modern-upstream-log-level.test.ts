import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { firstText, makeHome, ROOT, type TestHome } from "./helpers.js";

/**
 * 2026-07-28 removed logging/setLevel (a log level travels with each request instead). A 2025
 * client of the gateway that sets a level (the Inspector, many editors do at once) must not make the
 * gateway send one to a 2026-07-28 upstream: the SDK refuses it locally, and taken for a transport
 * failure that closed the connection, again at every reconnect, until the server was given up.
 */
const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");

let home: TestHome;
let running: RunningGateway;

beforeAll(async () => {
  home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL] } }, gateway: { upstreamProtocol: "auto" } });
  running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
}, 60_000);

afterAll(async () => {
  await running?.close();
  await home?.cleanup();
});

describe("a 2025 client's log level and a 2026-07-28 upstream", () => {
  it("logging/setLevel leaves the upstream's connection alone: calls go on working", async () => {
    const client = new Client({ name: "sets-a-level", version: "1" }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    try {
      expect(firstText(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
      expect((await running.gateway.service.clients.connect("full")).protocol.era).toBe("modern");
      await client.setLoggingLevel("debug");
      for (let i = 0; i < 5; i++) {
        expect(firstText(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
      }
      expect(running.gateway.service.clients.status("full")).toMatchObject({ state: "connected", failures: 0 });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("logging/setLevel to a 2026-07-28 server through the client manager", () => {
  it("is refused without being sent, saying the protocol version has none; the connection stays up", async () => {
    const clients = running.gateway.service.clients;
    expect((await clients.connect("full")).protocol.era).toBe("modern");
    const pid = clients.status("full").pid;
    await expect(clients.request("full", "logging/setLevel", { level: "debug" })).rejects.toMatchObject({ code: "MCP_REQUEST_UNSUPPORTED", message: expect.stringMatching(/2026-07-28/) });
    expect(clients.status("full")).toMatchObject({ state: "connected", pid, failures: 0 });
  }, 60_000);
});
