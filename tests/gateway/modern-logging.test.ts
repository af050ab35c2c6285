import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { firstText, makeHome, ROOT, type TestHome } from "./helpers.js";

const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";

/**
 * Log messages to a 2026-07-28 client (SEP-2577): a server sends `notifications/message` only for a
 * request that opts in with `io.modelcontextprotocol/logLevel` in its `_meta`, at or above that
 * level. An upstream's log messages during such a client's call follow the same rule (the Python
 * SDK client, for one, documents that none arrive without the opt-in). The client declares
 * elicitation, so its calls take the SDK path, where log messages are forwarded.
 */
describe("upstream log messages to a 2026-07-28 client", () => {
  let home: TestHome;
  let running: RunningGateway;
  let client: Client;
  const messages: string[] = [];

  beforeAll(async () => {
    home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL] } } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
    client = new Client({ name: "modern-logging", version: "1" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    client.setNotificationHandler("notifications/message", (n) => void messages.push(`${n.params.level}:${String(n.params.data)}`));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    expect(client.getProtocolEra()).toBe("modern");
  });

  afterAll(async () => {
    await client?.close();
    await running?.close();
    await home?.cleanup();
  });

  async function callWithLogging(meta: Record<string, unknown>): Promise<string[]> {
    messages.length = 0;
    const result = await client.callTool({ name: "test_tool_with_logging", arguments: {}, _meta: meta });
    expect(firstText(result)).toBe("Tool with logging executed successfully");
    return [...messages];
  }

  it("a call that does not opt in gets none of the upstream's log messages", async () => {
    expect(await callWithLogging({})).toEqual([]);
  });

  it("a call at level error gets none of the upstream's info messages", async () => {
    expect(await callWithLogging({ [LOG_LEVEL]: "error" })).toEqual([]);
  });

  it("a call at level info gets them, on the call's stream", async () => {
    expect(await callWithLogging({ [LOG_LEVEL]: "info" })).toEqual(["info:Tool execution started", "info:Tool processing data", "info:Tool execution completed"]);
  });
});
