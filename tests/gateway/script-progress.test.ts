import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { makeHome, ROOT, type TestHome } from "./helpers.js";

/**
 * run_mcp_script with a progressToken: a long script is heard from while it runs (elapsed time of
 * its wall budget, every gateway.progressIntervalMs), so a client that resets its request timeout
 * on progress — as MCP clients do for long tools — keeps waiting for it.
 */
const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");

describe("run_mcp_script reports progress to a client that asks for it", () => {
  let home: TestHome;
  let running: RunningGateway;
  let client: Client;

  beforeAll(async () => {
    home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL] } }, gateway: { progressIntervalMs: 200 } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
    client = new Client({ name: "script-progress", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
  });

  afterAll(async () => {
    await client?.close();
    await running?.close();
    await home?.cleanup();
  });

  it("sends increasing progress (ms of the wall budget) until the script returns, then stops", async () => {
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const script = 'return require("host:mcp-full").slow_echo({ text: "done", ms: 1200 })';
    const result = await client.callTool({ name: "run_mcp_script", arguments: { script, timeoutMs: 20_000 } }, { onprogress: (p) => seen.push(p) });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ result: "done" });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    expect(seen[0]).toMatchObject({ total: 20_000, message: expect.stringMatching(/^run_mcp_script running for \d+(\.\d)? s of its 20 s budget$/) });
    const after = seen.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toHaveLength(after);
  }, 30_000);
});
