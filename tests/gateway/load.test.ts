import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { firstText, fixtureServer, makeHome, type TestHome } from "./helpers.js";

const CLIENTS = 10;
const CALLS_PER_CLIENT = 20;

describe("gateway under concurrent load (loopback)", () => {
  let home: TestHome;
  let running: RunningGateway;

  beforeAll(async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "load", tools: ["fixture.echo"] });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, toolset: "load", logLevel: "error", pretty: false });
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it(`${CLIENTS} clients × ${CALLS_PER_CLIENT} concurrent direct calls: none lost, none mixed up between sessions`, async () => {
    const url = new URL(running.url as string);
    // No token given: the gateway made one in the home (loopback is not "only this person").
    const requestInit = { headers: { authorization: `Bearer ${running.token ?? ""}` } };
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, index) => {
        // Half 2026-07-28 (per-request) clients, half 2025-era sessions from the v1 SDK.
        if (index % 2 === 0) {
          const client = new Client({ name: `load-${index}`, version: "1" }, { versionNegotiation: { mode: "auto" } });
          await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
          return client;
        }
        const client = new V1Client({ name: `load-${index}`, version: "1" });
        await client.connect(new V1HttpTransport(url, { requestInit }));
        return client;
      }),
    );
    try {
      const answers = await Promise.all(
        clients.map(async (client, c) =>
          Promise.all(
            Array.from({ length: CALLS_PER_CLIENT }, async (_, i) => {
              const text = `client-${c}-call-${i}`;
              return { text, got: firstText(await client.callTool({ name: "fixture_echo", arguments: { text } })) };
            }),
          ),
        ),
      );
      const flat = answers.flat();
      expect(flat).toHaveLength(CLIENTS * CALLS_PER_CLIENT);
      expect(flat.filter((a) => a.got !== a.text)).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it("concurrent run_mcp_script calls run in separate sandboxes", async () => {
    const url = new URL(running.url as string);
    const client = new Client({ name: "sandboxes", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${running.token ?? ""}` } } }));
    try {
      const script = (n: number) => `globalThis.mark = (globalThis.mark ?? 0) + ${n}; await tools.fixture.sleep({ ms: 50 }); return globalThis.mark;`;
      const results = await Promise.all([1, 10, 100].map(async (n) => JSON.parse(firstText(await client.callTool({ name: "run_mcp_script", arguments: { script: script(n) } }))) as { result: number; error?: unknown }));
      expect(results.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
      expect(results.map((r) => r.result)).toEqual([1, 10, 100]);
    } finally {
      await client.close();
    }
  });
});
