import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { exchange, fastLaneCalls, legacyCall, modernCall, modernHeaders, openLegacySession, TOKEN } from "./fast-lane-support.js";
import { everythingServer, makeHome, waitFor, type TestHome } from "./helpers.js";

const ECHO = "everything_echo";
const LONG = "everything_trigger_long_running_operation";
const SUM = "everything_get_sum";
const errorCode = (message: unknown): unknown => (message as { error?: { code?: unknown } }).error?.code;

/**
 * The equipped toolset narrowed while clients hold a session, its open stream and a call in flight
 * (reasoned safe in an earlier wave, never tested): the removed tool must not be callable afterwards
 * on any path (a 2025 session through the SDK server, a raw session and a 2026-07-28 request through
 * the fast lane, which had already answered it), the session is told (list_changed), and the call in
 * flight still ends normally.
 */
describe("a toolset narrowed mid-stream", () => {
  let home: TestHome;
  let running: RunningGateway;
  let store: ToolsetStore;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    store = new ToolsetStore(join(home.dir, "toolsets.json"));
    await store.save({ name: "team", tools: ["everything.echo", "everything.get-sum", "everything.trigger-long-running-operation"] });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, toolset: "team", logLevel: "error", pretty: false });
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("refuses the removed tool on every path, tells the session, and lets the call in flight finish", { timeout: 120_000 }, async () => {
    const url = new URL(running.url as string);
    const client = new V1Client({ name: "narrowed-mid-stream", version: "1" });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    await client.connect(new V1HttpTransport(url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    const legacy = await openLegacySession(url);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining([ECHO, SUM, LONG]));
      // Each path answers the tool once before the edit (the fast lane has it in hand).
      expect((await client.callTool({ name: ECHO, arguments: { message: "before" } })).isError).toBeFalsy();
      expect(errorCode((await exchange(url, legacy, legacyCall("l1", ECHO, { message: "before" }))).message)).toBeUndefined();
      expect(errorCode((await exchange(url, modernHeaders(ECHO), modernCall("m1", ECHO, { message: "before" }))).message)).toBeUndefined();
      const fast = await fastLaneCalls(url);
      expect(fast.on).toBe(true);
      expect(fast.calls).toBeGreaterThan(0);

      const inFlight = client.callTool({ name: LONG, arguments: { duration: 3, steps: 3 } }, undefined, { onprogress: () => undefined, timeout: 60_000 });
      await store.save({ name: "team", tools: ["everything.get-sum", "everything.trigger-long-running-operation"] });
      await waitFor(() => changes > 0, 10_000, "list_changed after the toolset was narrowed, with no request made");
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain(ECHO);

      await expect(client.callTool({ name: ECHO, arguments: { message: "after" } })).rejects.toThrow(/Unknown tool: this gateway has no tool "everything_echo"/);
      expect(errorCode((await exchange(url, legacy, legacyCall("l2", ECHO, { message: "after" }))).message)).toBe(-32602);
      expect(errorCode((await exchange(url, modernHeaders(ECHO), modernCall("m2", ECHO, { message: "after" }))).message)).toBe(-32602);

      expect(JSON.stringify((await inFlight).content)).toContain("Long running operation completed");
      expect((await client.callTool({ name: SUM, arguments: { a: 2, b: 3 } })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
