import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { everythingServer, firstText, makeHome, type TestHome } from "./helpers.js";
import { LineClient, type Message } from "./stdio-lane-support.js";

/**
 * roots through the gateway, with server-everything (which asks its client for roots right after it
 * starts, again on notifications/roots/list_changed, and shows what it got with get-roots-list) and
 * real clients. Each test has its own gateway, so its own server-everything (which keeps the roots).
 */
describe("roots: the client's roots reach the upstream that asks", () => {
  let home: TestHome;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
  });
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close().catch(() => undefined);
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  async function gateway(): Promise<RunningGateway> {
    const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false, expose: "everything" });
    open.push(running);
    return running;
  }

  async function connect(running: RunningGateway, options: { roots?: () => Array<{ uri: string; name: string }>; mode?: "legacy" | "auto" } = {}): Promise<Client> {
    const capabilities = options.roots === undefined ? {} : { roots: { listChanged: true } };
    const client = new Client({ name: "roots-test", version: "1" }, { capabilities, versionNegotiation: { mode: options.mode ?? "legacy" } });
    const roots = options.roots;
    if (roots !== undefined) client.setRequestHandler("roots/list", async () => ({ roots: roots() }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    open.push(client);
    return client;
  }

  const shown = async (client: Client): Promise<string> => firstText(await client.callTool({ name: "get-roots-list", arguments: {} }));

  async function until(read: () => Promise<string>, text: string): Promise<string> {
    let last = "";
    for (let i = 0; i < 50 && !(last = await read()).includes(text); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    return last;
  }

  it("a 2025 session: the upstream gets its roots when it starts, and again after notifications/roots/list_changed", async () => {
    let roots = [{ uri: "file:///work/first", name: "first" }];
    const client = await connect(await gateway(), { roots: () => roots });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("get-roots-list");
    expect(await until(() => shown(client), "file:///work/first")).toContain("1. first");
    roots = [{ uri: "file:///work/second", name: "second" }];
    await client.sendRootsListChanged();
    const after = await until(() => shown(client), "file:///work/second");
    expect(after).toContain("file:///work/second");
    expect(after).not.toContain("file:///work/first");
  }, 60_000);

  it("a 2026-07-28 client: asked in an input_required round of the call that needs them", async () => {
    const client = await connect(await gateway(), { roots: () => [{ uri: "file:///work/modern", name: "modern" }], mode: "auto" });
    expect(client.getProtocolEra()).toBe("modern");
    expect(await shown(client)).toContain("file:///work/modern");
  }, 60_000);

  it("a client that offers no roots: the upstream gets none (no other client's by guess)", async () => {
    const running = await gateway();
    // server-everything asks for roots once outside any call, 350 ms after it starts, and keeps what it
    // gets. Landing while the client with roots is connected, that ask rightly gets its roots (the one
    // connected client offering roots: GATEWAY.md, "Roots"), so the client without roots starts the
    // server with a call and lets that ask pass (answered: no client offers roots) before the other connects.
    const without = await connect(running);
    expect(await shown(without)).toContain("no roots are currently configured");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const withRoots = await connect(running, { roots: () => [{ uri: "file:///work/someone-else", name: "other" }] });
    // The call of the client without roots asks that client, which refuses.
    expect(await shown(without)).toContain("no roots are currently configured");
    await withRoots.close();
  }, 60_000);

  it("stdio: the one client's roots", async () => {
    const client = new LineClient();
    const running = await startGateway({ env: home.env, stdin: client.stdin, stdout: client.stdout, logLevel: "silent", expose: "everything" });
    open.push(running);
    await client.initialize({ roots: {} });
    await client.request("list", "tools/list", {});
    // Answer the gateway's roots/list (server-everything asks it of the gateway when it starts).
    const asked = await waitForRequest(client, "roots/list");
    client.send({ jsonrpc: "2.0", id: asked.id as string | number, result: { roots: [{ uri: "file:///work/stdio", name: "stdio" }] } });
    const text = await until(async () => firstText((await client.request(`c${Date.now()}`, "tools/call", { name: "get-roots-list", arguments: {} })).result), "file:///work/stdio");
    expect(text).toContain("file:///work/stdio");
  }, 60_000);
});

async function waitForRequest(client: LineClient, method: string): Promise<Message> {
  for (let i = 0; i < 100; i += 1) {
    const found = client.received.find((m) => m.method === method && "id" in m);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the gateway never sent ${method}; received ${JSON.stringify(client.received).slice(0, 400)}`);
}
