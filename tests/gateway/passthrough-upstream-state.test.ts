import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { makeHome, ROOT, waitFor, type TestHome } from "./helpers.js";

/**
 * What a gateway client asked of the upstream servers outside any call — its log level, its
 * resource subscriptions — must hold for as long as the client holds it, whatever happens to the
 * upstream process: not started just to be told a level, told again when it (re)starts, kept
 * running while someone is subscribed to it, and subscribed again after a crash.
 */
const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");
const PAGED = join(ROOT, "tests/fixtures/servers/paged-server.mjs");

let home: TestHome | undefined;
let running: RunningGateway | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  await running?.close();
  await home?.cleanup();
  client = undefined;
  running = undefined;
  home = undefined;
});

async function start(mcp: Record<string, unknown> = {}, gateway: Record<string, unknown> = {}): Promise<{ events: () => string[]; notes: string[] }> {
  home = await makeHome({
    servers: {
      full: { command: process.execPath, args: [FULL], env: { MCPVM_FULL_EVENTS: "${MCPVM_TEST_EVENTS}" } },
      paged: { command: process.execPath, args: [PAGED] },
    },
    mcp,
    gateway,
  });
  const eventsFile = join(home.dir, "full-events.txt");
  running = await startGateway({ env: { ...home.env, MCPVM_TEST_EVENTS: eventsFile }, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
  const notes: string[] = [];
  client = new Client({ name: "upstream-state-test", version: "1" }, { capabilities: {} });
  client.setNotificationHandler("notifications/resources/updated", (n) => void notes.push(`updated ${n.params.uri}`));
  client.setNotificationHandler("notifications/message", (n) => void notes.push(`log ${String(n.params.data)}`));
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
  const events = () => (existsSync(eventsFile) ? readFileSync(eventsFile, "utf8").split("\n").filter((line) => line !== "") : []);
  return { events, notes };
}

const state = (name: string) => running!.gateway.service.clients.status(name);
const script = (code: string) => client!.callTool({ name: "run_mcp_script", arguments: { script: code } });

describe("gateway: a client's log level and subscriptions outlive the upstream process", () => {
  it("logging/setLevel starts no server; a server that starts later is told the level when it connects", async () => {
    const { events } = await start();
    await client!.setLoggingLevel("warning");
    expect(state("full").state).toBe("idle");
    expect(state("paged").state).toBe("idle");
    await script('return require("host:mcp-full").test_simple_text({})');
    await waitFor(() => events().includes("setLevel warning"), 5_000, "the level sent to full when it connected");
    // A server that does not declare logging is never sent one.
    await script('return require("host:mcp-paged").tool_001({})');
    expect(state("paged").state).toBe("connected");
  }, 30_000);

  it("a server with a subscription is not closed for being idle, and its updates keep coming", async () => {
    const { events, notes } = await start({ idleTimeoutMs: 300 });
    await client!.subscribeResource({ uri: "test://watched-resource" });
    const pid = state("full").pid;
    await new Promise((r) => setTimeout(r, 900));
    expect(state("full")).toMatchObject({ state: "connected", pid });
    await script('return require("host:mcp-full").touch_watched({})');
    await waitFor(() => notes.includes("updated test://watched-resource"), 5_000, "resources/updated after the idle timeout");
    // Once nobody holds a subscription the idle timeout applies again.
    await client!.unsubscribeResource({ uri: "test://watched-resource" });
    await waitFor(() => state("full").state === "idle", 5_000, "full closed for being idle after the unsubscribe");
    expect(events().filter((e) => e === "subscribe test://watched-resource")).toHaveLength(1);
  }, 30_000);

  it("after an upstream crash and reconnect, the level and the subscriptions are sent again", async () => {
    const { events, notes } = await start({}, { healthIntervalMs: 200, reconnectBaseMs: 100, reconnectMaxMs: 200 });
    await client!.setLoggingLevel("error");
    await client!.subscribeResource({ uri: "test://watched-resource" });
    const pid = state("full").pid as number;
    process.kill(pid, "SIGKILL");
    // A new process starting and initializing: seconds on a loaded machine, so the bounds are wide.
    await waitFor(() => state("full").state === "connected" && state("full").pid !== pid, 30_000, "full reconnected by the health monitor");
    // The level and the subscriptions are sent side by side (passthrough.ts onConnected): either may arrive first.
    await waitFor(() => events().filter((e) => e === "subscribe test://watched-resource").length === 2, 15_000, "the subscription renewed upstream");
    await waitFor(() => events().filter((e) => e === "setLevel error").length === 2, 15_000, "the level told again upstream");
    await script('return require("host:mcp-full").touch_watched({})');
    await waitFor(() => notes.includes("updated test://watched-resource"), 15_000, "resources/updated from the restarted server");
    // Told once each per process, not repeated.
    expect(events().filter((e) => e === "setLevel error")).toHaveLength(2);
    expect(events().filter((e) => e === "subscribe test://watched-resource")).toHaveLength(2);
  }, 90_000);
});
