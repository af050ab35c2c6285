import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { makeHome, ROOT, waitFor, type TestHome } from "./helpers.js";

/**
 * A 2026-07-28 `subscriptions/listen` holds the upstream subscriptions its URIs need while its
 * stream is open. A client that hangs up while those are still being set up (the upstream takes
 * its time to start) must not leave them held: the server would be kept running for good.
 */
const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");

let home: TestHome;
let running: RunningGateway;

beforeAll(async () => {
  // A server that takes 1.5 s to start, so the listen is still setting up when its client leaves.
  home = await makeHome({ servers: { slow: { command: "/bin/sh", args: ["-c", `sleep 1.5; exec "${process.execPath}" "${FULL}"`], env: { MCPVM_FULL_EVENTS: "${MCPVM_TEST_EVENTS}" } } }, mcp: { idleTimeoutMs: 300 } });
  running = await startGateway({ env: { ...home.env, MCPVM_TEST_EVENTS: join(home.dir, "events.txt") }, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
}, 60_000);

afterAll(async () => {
  await running?.close();
  await home?.cleanup();
});

describe("gateway: a subscriptions/listen whose client leaves before it is set up", () => {
  it("releases what it subscribed upstream: the server idles again", async () => {
    const controller = new AbortController();
    const listen = fetch(running.url as string, {
      method: "POST",
      signal: controller.signal,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { resourceSubscriptions: ["test://watched-resource"] } } }),
    }).catch(() => "hung up");
    await waitFor(() => running.gateway.service.clients.status("slow").state === "connecting", 10_000, "slow starting for the listen");
    controller.abort();
    expect(await listen).toBe("hung up");
    const events = () => (existsSync(join(home.dir, "events.txt")) ? readFileSync(join(home.dir, "events.txt"), "utf8") : "");
    await waitFor(() => events().includes("subscribe test://watched-resource"), 20_000, "the upstream subscription made after the client left");
    // Subscribed upstream after the client left, then released: the idle timeout applies again.
    await waitFor(() => running.gateway.service.clients.status("slow").state === "idle", 8_000, "slow closed for being idle");
  }, 60_000);
});
