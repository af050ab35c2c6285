import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientTokenStore } from "../../src/gateway/clients/store.js";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { bearer, MODERN, modernCall, modernHeaders, TOKEN } from "./fast-lane-support.js";
import { drainStream } from "./drain-stream.js";
import { everythingServer, makeHome, waitFor, type TestHome } from "./helpers.js";

/**
 * A revoked client token must stop receiving on the streams it already holds open, not only be
 * refused its next request: a 2026-07-28 `subscriptions/listen` stream and a long call's response
 * stream (progress) both close within a few seconds of `revoke`. (The 2025 session's GET stream:
 * client-token-passthrough.test.ts.) Real gateway, server-everything upstream, real HTTP on 127.0.0.1.
 */
describe("gateway: a revoked client token's open streams", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  let store: ClientTokenStore;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    store = new ClientTokenStore(join(home.dir, "gateway-clients.json"));
    await store.create("placeholder");
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", pretty: false, expose: "everything" });
    url = new URL(running.url as string);
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("a subscriptions/listen stream closes when its token is revoked", { timeout: 40_000 }, async () => {
    const { token } = await store.create("listener");
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...bearer(token), "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "listener", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    expect(response.status, response.status === 200 ? "" : await response.text()).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const stream = drainStream(response);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(stream.ended, stream.text).toBe(false);
    await store.revoke("listener");
    await waitFor(() => stream.ended, 10_000, "the revoked client's listen stream to close");
  });

  it("a long call's progress stream closes when its token is revoked", { timeout: 60_000 }, async () => {
    const { token } = await store.create("caller");
    const LONG = "trigger-long-running-operation";
    const response = await fetch(url, { method: "POST", headers: modernHeaders(LONG, token), body: JSON.stringify(modernCall(7, LONG, { duration: 40, steps: 40 }, { progressToken: "p7" })) });
    expect(response.status).toBe(200);
    const stream = drainStream(response);
    await waitFor(() => stream.text.includes("notifications/progress"), 15_000, "the first progress notification");
    await store.revoke("caller");
    await waitFor(() => stream.ended, 10_000, "the revoked client's call stream to close");
    expect(stream.text).not.toContain("Long running operation completed");
  });
});
