import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { everythingServer, firstText, makeHome, type TestHome } from "./helpers.js";

/**
 * A 2025 session moved to another replica (two gateways sharing one config home, so one session
 * key) keeps what its client declared: the rebuilt session still offers roots, so an upstream's
 * roots/list reaches the client after the move. Before the capabilities travelled with the session,
 * the rebuilt session declared none and the upstream heard "no connected client offers roots".
 */
describe("a 2025 session rebuilt on another replica keeps its client's capabilities", () => {
  let home: TestHome;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    for (let i = 0; i < 2; i += 1) {
      gateways.push(await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false, expose: "everything" }));
    }
  }, 120_000);
  afterAll(async () => {
    for (const running of gateways) await running.close().catch(() => undefined);
    await home?.cleanup();
  });

  it("after the first replica stops, roots/list from the second still reaches the client", async () => {
    const [first, second] = gateways.map((g) => new URL(g.url as string));
    let target = first as URL;
    // As a balancer would: every request (the notification stream's reconnection too) goes to the current replica.
    const routed: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.host = target.host;
      return fetch(url, init);
    };
    const asked: string[] = [];
    const client = new Client({ name: "roots-mover", version: "7" }, { capabilities: { roots: { listChanged: true } }, versionNegotiation: { mode: "legacy" } });
    client.setRequestHandler("roots/list", async () => {
      asked.push(target.port);
      return { roots: [{ uri: "file:///work/moved", name: "moved" }] };
    });
    await client.connect(new StreamableHTTPClientTransport(first as URL, { fetch: routed }));

    await gateways[0]?.close();
    target = second as URL;
    const shown = async (): Promise<string> => firstText(await client.callTool({ name: "get-roots-list", arguments: {} }));
    let text = await shown();
    // The upstream of the second replica asks again when told the roots changed; the rebuilt session must offer them.
    for (let i = 0; i < 50 && !text.includes("file:///work/moved"); i += 1) {
      await client.sendRootsListChanged();
      await new Promise((resolve) => setTimeout(resolve, 200));
      text = await shown();
    }
    expect(text).toContain("file:///work/moved");
    expect(asked).toContain(target.port);
    await client.close();
  }, 90_000);
});
