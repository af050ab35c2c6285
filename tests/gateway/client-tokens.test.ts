import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { runCli } from "../../src/cli/main.js";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { everythingServer, jsonOf, makeHome, memoryServer, type TestHome } from "./helpers.js";

const TOKEN = "gateway-token-0123456789abcdef";

async function cli(home: TestHome, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(home.env);
  const code = await runCli(argv, io);
  return { code, out: io.stdoutText(), err: io.stderrText() };
}

describe("named client tokens (mcpvm gateway token)", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const memoryDir = await mkdtemp(join(tmpdir(), "mcpvm-gw-memory-"));
    home = await makeHome({ servers: { everything: everythingServer(), memory: memoryServer(memoryDir) } });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "echo-only", tools: ["everything.echo"] });
    for (const [name, ...flags] of [["alice", "--servers", "memory"], ["bob", "--toolset", "echo-only"], ["carol", "--rate", "3/s"], ["dave"]] as const) {
      const made = await cli(home, "gateway", "token", "create", name, ...flags);
      expect(made.code, made.err).toBe(0);
      tokens[name] = made.out.trim();
    }
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", logFile: "always", pretty: false });
    url = new URL(running.url as string);
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  async function client(token: string): Promise<Client> {
    const c = new Client({ name: "tokens-test", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return c;
  }

  async function toolNames(token: string): Promise<string[]> {
    const c = await client(token);
    try {
      return (await c.listTools()).tools.map((t) => t.name).sort();
    } finally {
      await c.close();
    }
  }

  it("stores digests, never tokens, and lists clients with their limits", async () => {
    const stored = await readFile(join(home.dir, "gateway-clients.json"), "utf8");
    for (const token of Object.values(tokens)) {
      expect(token).toMatch(/^mcpvm_[A-Za-z0-9_-]{43}$/);
      expect(stored).not.toContain(token);
    }
    const listed = await cli(home, "--json", "gateway", "token", "list");
    const clients = (JSON.parse(listed.out) as { clients: Array<{ name: string; servers?: string[]; toolset?: string; rate?: unknown }> }).clients;
    expect(clients.map((c) => c.name)).toEqual(["alice", "bob", "carol", "dave"]);
    expect(clients[0]?.servers).toEqual(["memory"]);
    expect(clients[1]?.toolset).toBe("echo-only");
    expect(clients[2]?.rate).toEqual({ count: 3, perMs: 1000 });
    expect(listed.out).not.toContain(tokens.alice as string);
  });

  it("refuses a token for an unknown server or toolset, a taken name, a bad rate (usage, exit 2)", async () => {
    expect((await cli(home, "gateway", "token", "create", "x", "--servers", "memroy")).code).toBe(2);
    expect((await cli(home, "gateway", "token", "create", "x", "--toolset", "nope")).code).toBe(2);
    expect((await cli(home, "gateway", "token", "create", "x", "--rate", "fast")).code).toBe(2);
    const again = await cli(home, "--json", "gateway", "token", "create", "alice");
    expect(again.code).not.toBe(0);
    expect(again.err + again.out).toContain("GATEWAY_CLIENT_EXISTS");
    expect((await cli(home, "gateway", "token", "revoke", "nobody")).code).not.toBe(0);
  });

  it("shows each client only what its token allows", async () => {
    const all = await toolNames(TOKEN);
    expect(all).toContain("build-toolset");
    expect(await toolNames(tokens.dave as string)).toEqual(all);
    expect(await toolNames(tokens.alice as string)).toEqual(["discover-all-tools", "list_mcp_tools", "run_mcp_script", "search_tools"]);
    expect(await toolNames(tokens.bob as string)).toEqual(["discover-all-tools", "everything_echo", "list_mcp_tools", "run_mcp_script", "search_tools"]);
  });

  it("lets a client call only its servers and tools, in scripts too", async () => {
    const alice = await client(tokens.alice as string);
    const bob = await client(tokens.bob as string);
    try {
      const memory = await alice.callTool({ name: "run_mcp_script", arguments: { script: 'const m = require("host:mcp-memory"); return Object.keys(await m.read_graph({}));' } });
      expect(memory.isError, JSON.stringify(memory)).not.toBe(true);
      const everything = await alice.callTool({ name: "run_mcp_script", arguments: { script: 'const e = require("host:mcp-everything"); return await e.echo({ message: "x" });' } });
      expect(everything.isError).toBe(true);
      expect(jsonOf<{ error: { errorCode?: string; message: string } }>(everything).error.message).toContain("not available to this gateway client");
      // The `tools` global lists only the servers the token allows (the others' names stay unknown to the script).
      const listed = await alice.callTool({ name: "run_mcp_script", arguments: { script: "return Object.keys(tools);" } });
      expect(jsonOf<{ result: unknown }>(listed).result).toEqual(["memory"]);
      const throughTools = await alice.callTool({ name: "run_mcp_script", arguments: { script: 'return Object.keys(await tools.memory.read_graph({}));' } });
      expect(throughTools.isError, JSON.stringify(throughTools)).not.toBe(true);
      const notListed = await alice.callTool({ name: "run_mcp_script", arguments: { script: "return tools.everything.echo({ message: 'x' });" } });
      expect(notListed.isError).toBe(true);
      const discovered = jsonOf<{ servers: Array<{ server: string }> }>(await alice.callTool({ name: "discover-all-tools", arguments: {} }));
      expect(discovered.servers.map((s) => s.server)).toEqual(["memory"]);
      const forbidden = await alice.callTool({ name: "build-toolset", arguments: { name: "mine", tools: ["everything.echo"] } });
      expect(forbidden.isError).toBe(true);
      expect(JSON.stringify(forbidden)).toContain("GATEWAY_CLIENT_FORBIDDEN");

      const echoed = await bob.callTool({ name: "everything_echo", arguments: { message: "hi bob" } });
      expect(JSON.stringify(echoed.content)).toContain("hi bob");
      const inScript = await bob.callTool({ name: "run_mcp_script", arguments: { script: 'const e = require("host:mcp-everything"); return (await e.echo({ message: "s" }));' } });
      expect(inScript.isError, JSON.stringify(inScript)).not.toBe(true);
      const notInToolset = await bob.callTool({ name: "run_mcp_script", arguments: { script: 'const e = require("host:mcp-everything"); return await e.get_sum({ a: 1, b: 2 });' } });
      expect(notInToolset.isError).toBe(true);
      expect(jsonOf<{ error: { message: string } }>(notInToolset).error.message).toContain("get_sum");
      const batch = await bob.callTool({ name: "run_mcp_script", arguments: { script: 'const e = require("host:mcp-everything"); return await e.$batch("get_sum", [{ a: 1, b: 2 }]);' } });
      expect(batch.isError).toBe(true);
      const listing = await bob.callTool({ name: "list_mcp_tools", arguments: {} });
      const text = JSON.stringify(listing.content);
      expect(text).toContain("echo");
      expect(text).not.toContain("get_sum");
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });

  it("rate-limits one client on its own (429 with Retry-After), others unaffected", async () => {
    const post = (token: string) =>
      fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } } }),
      });
    const flood = await Promise.all(Array.from({ length: 12 }, () => post(tokens.carol as string)));
    const statuses = flood.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(12 - 4);
    const limited = flood.find((r) => r.status === 429);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const others = await Promise.all(Array.from({ length: 12 }, () => post(tokens.dave as string)));
    expect(others.map((r) => r.status)).toEqual(Array.from({ length: 12 }, () => 200));
  });

  it("refuses a revoked token on its next request, mid-session, and a session to another client's token", async () => {
    const made = await cli(home, "gateway", "token", "create", "erin");
    const erinToken = made.out.trim();
    const v1 = new V1Client({ name: "erin", version: "1" });
    const transport = new V1HttpTransport(url, { requestInit: { headers: { authorization: `Bearer ${erinToken}` } } });
    await v1.connect(transport);
    try {
      await v1.listTools();
      // Another client's token on erin's session: the session does not exist for it.
      const crossed = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.dave}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": transport.sessionId as string, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      expect(crossed.status).toBe(404);
      expect((await cli(home, "gateway", "token", "revoke", "erin")).code).toBe(0);
      await expect(v1.listTools()).rejects.toThrow(/401|Unauthorized/);
    } finally {
      await v1.close().catch(() => undefined);
    }
  });

  it("names the client of every call in the log", async () => {
    const lines = (await readFile(running.logFile as string, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = lines.filter((l) => l.method === "tools/call");
    expect(new Set(calls.map((l) => l.client))).toEqual(new Set(["alice", "bob"]));
    expect(JSON.stringify(lines)).not.toContain(tokens.alice as string);
  });
});
