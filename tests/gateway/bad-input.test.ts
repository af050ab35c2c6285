import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { MAX_BODY_BYTES, startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { fixtureServer, makeHome, type TestHome } from "./helpers.js";

const TOKEN = "bad-input-token-0123456789abcdef";
const HEADERS = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("bad input to the HTTP gateway: refused clearly, other clients unaffected", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;

  beforeAll(async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent" });
    url = new URL(running.url as string);
  });
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  async function rpcError(body: string, extra: Record<string, string> = {}): Promise<{ status: number; code: number | undefined }> {
    const response = await fetch(url, { method: "POST", headers: { ...HEADERS, ...extra }, body });
    const json = (await response.json().catch(() => undefined)) as { error?: { code: number } } | undefined;
    return { status: response.status, code: json?.error?.code };
  }

  it("an oversized body: 413", async () => {
    expect(await rpcError(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(MAX_BODY_BYTES) } }))).toEqual({ status: 413, code: -32000 });
  });

  it("not JSON, or JSON that is no JSON-RPC message: 400 with a JSON-RPC error", async () => {
    expect(await rpcError("{not json")).toEqual({ status: 400, code: -32700 });
    const notRpc = await rpcError(JSON.stringify({ hello: "world" }));
    expect(notRpc.status).toBeGreaterThanOrEqual(400);
    expect(notRpc.status).toBeLessThan(500);
    expect(typeof notRpc.code).toBe("number");
  });

  it("a malformed initialize: -32602 saying what an initialize needs, not 'send initialize first'", async () => {
    for (const params of [{ protocolVersion: "2025-11-25", capabilities: {} }, { protocolVersion: 5, capabilities: "x", clientInfo: null }, { protocolVersion: "2025-11-25", capabilities: { experimental: { x: "y" } }, clientInfo: { name: "n", version: "1" } }]) {
      const response = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params }) });
      const json = (await response.json()) as { id: unknown; error: { code: number; message: string } };
      expect(response.status).toBe(400);
      expect(json.id).toBe(7);
      expect(json.error.code).toBe(-32602);
      expect(json.error.message).toContain("Invalid params for initialize");
      expect(json.error.message).toContain("clientInfo");
      expect(json.error.message).not.toContain("send initialize first");
    }
  });

  it("a batch (JSON array): a clear 4xx JSON-RPC error, never a crash", async () => {
    const batch = await rpcError(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }, { jsonrpc: "2.0", id: 2, method: "tools/list" }]), { "mcp-protocol-version": "2025-11-25" });
    expect(batch.status).toBeGreaterThanOrEqual(400);
    expect(batch.status).toBeLessThan(500);
    expect(typeof batch.code).toBe("number");
  });

  it("an unknown argument to a built-in tool: refused, naming the key, the closest known one and every key the tool takes", async () => {
    const client = new Client({ name: "typo", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    try {
      const typo = await client.callTool({ name: "list_mcp_tools", arguments: { srever: "fixture" } });
      expect(typo.isError).toBe(true);
      expect(JSON.stringify(typo.content)).toContain('Invalid arguments for list_mcp_tools: (arguments): Unrecognized key: \\"srever\\"; did you mean \\"server\\"? list_mcp_tools takes: server, query.');
      const none = await client.callTool({ name: "list-toolsets", arguments: { all: true } });
      expect(JSON.stringify(none.content)).toContain('Unrecognized key: \\"all\\". list-toolsets takes no arguments.');
    } finally {
      await client.close();
    }
  });

  it("a slow client (slowloris) is cut off while another client is served", { timeout: 60_000 }, async () => {
    const socket = connect(Number(url.port), "127.0.0.1");
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on("close", () => resolve(Date.now() - started));
      socket.on("error", () => undefined);
    });
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\n`);
    const drip = setInterval(() => socket.writable && socket.write("X-Slow: a\r\n"), 1_000);
    try {
      const client = new Client({ name: "patient", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
      // headersTimeout is 10 s; the bound is generous for a loaded machine.
      expect(await closed).toBeLessThan(45_000);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  });
});
