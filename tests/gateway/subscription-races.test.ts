import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { makeHome, ROOT, waitFor, type TestHome } from "./helpers.js";

/**
 * Resource subscriptions that arrive at the same time — from two clients, or twice from one — must
 * leave the gateway holding exactly one upstream subscription, released with the last holder: the
 * server then idles again (a lost release would keep it running for the gateway's whole life).
 */
const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");
const URI = "test://watched-resource";

let home: TestHome | undefined;
let running: RunningGateway | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await running?.close();
  await home?.cleanup();
  running = undefined;
  home = undefined;
});

async function start(): Promise<() => string[]> {
  home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL], env: { MCPVM_FULL_EVENTS: "${MCPVM_TEST_EVENTS}" } } }, mcp: { idleTimeoutMs: 300 } });
  const eventsFile = join(home.dir, "full-events.txt");
  running = await startGateway({ env: { ...home.env, MCPVM_TEST_EVENTS: eventsFile }, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
  return () => (existsSync(eventsFile) ? readFileSync(eventsFile, "utf8").split("\n").filter((line) => line !== "") : []);
}

async function connect(): Promise<Client> {
  const client = new Client({ name: "subscription-race-test", version: "1" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(running!.url as string)));
  clients.push(client);
  return client;
}

const state = () => running!.gateway.service.clients.status("full");

describe("gateway: resource subscriptions made at the same time", () => {
  it("two clients subscribing at once share one upstream subscription, and the server idles after both leave", async () => {
    const events = await start();
    const [a, b] = [await connect(), await connect()];
    // Listed first, so both subscribes know the URI's owner at once and reach the upstream together.
    await a.listResources();
    await Promise.all([a.subscribeResource({ uri: URI }), b.subscribeResource({ uri: URI })]);
    expect(events().filter((e) => e === `subscribe ${URI}`)).toHaveLength(1);
    await a.unsubscribeResource({ uri: URI });
    await new Promise((r) => setTimeout(r, 700));
    expect(state().state).toBe("connected");
    await b.unsubscribeResource({ uri: URI });
    await waitFor(() => state().state === "idle", 5_000, "full closed for being idle once nobody holds the subscription");
  }, 30_000);

  it("one client subscribing twice at once holds one subscription, which its one unsubscribe releases", async () => {
    await start();
    const client = await connect();
    await Promise.all([client.subscribeResource({ uri: URI }), client.subscribeResource({ uri: URI })]);
    await client.unsubscribeResource({ uri: URI });
    await waitFor(() => state().state === "idle", 5_000, "full closed for being idle after the unsubscribe");
  }, 30_000);
});
