import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { everythingServer, firstText, jsonOf, makeHome, memoryServer, waitFor, EVERYTHING, type TestHome } from "./helpers.js";

const TOKEN = "test-token-0123456789abcdef";

describe("mcpvm serve --http", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  const headers = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    const memoryDir = await mkdtemp(join(tmpdir(), "mcpvm-gw-memory-"));
    home = await makeHome({ servers: { everything: everythingServer(), memory: memoryServer(memoryDir) } });
    // logFile "always": the call log is read back below (by default a file is written at debug level only).
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", logFile: "always", pretty: false });
    url = new URL(running.url as string);
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  /** SDK v2 speaks the 2026-07-28 revision when asked to negotiate ("auto"), 2025 otherwise. */
  async function v2Client(onToolsChanged?: () => void, mode: "auto" | "legacy" = "auto"): Promise<Client> {
    const client = new Client(
      { name: "test-v2", version: "1.0.0" },
      {
        versionNegotiation: { mode },
        ...(onToolsChanged === undefined ? {} : { listChanged: { tools: { onChanged: () => onToolsChanged(), debounceMs: 0 } } }),
      },
    );
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    return client;
  }

  async function v1Client(onToolsChanged?: () => void): Promise<V1Client> {
    const client = new V1Client({ name: "test-v1", version: "1.0.0" });
    if (onToolsChanged !== undefined) client.setNotificationHandler(ToolListChangedNotificationSchema, () => onToolsChanged());
    await client.connect(new V1HttpTransport(url, { requestInit: { headers } }));
    return client;
  }

  it("answers /health without revealing details to a caller without the token", async () => {
    const anonymous = (await (await fetch(new URL("/health", url))).json()) as Record<string, unknown>;
    expect(anonymous.status).toBe("ok");
    expect(anonymous.servers).toBeUndefined();
    const detailed = (await (await fetch(new URL("/health", url), { headers })).json()) as { servers: Array<{ name: string }> };
    expect(detailed.servers.map((s) => s.name)).toEqual(["everything", "memory"]);
  });

  it("refuses /health to a foreign Host header (DNS rebinding), like /mcp", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const target = new URL("/health", url);
      const req = request({ host: target.hostname, port: target.port, path: "/health", headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("refuses /mcp requests without the bearer token", async () => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(response.status).toBe(401);
    const client = new Client({ name: "no-token", version: "1" });
    await expect(client.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow();
  });

  it("lists the code-mode and toolset tools to SDK v2 clients (2026-07-28 and 2025 eras) and a v1 client alike", async () => {
    const expected = ["build-toolset", "delete-toolset", "discover-all-tools", "equip-toolset", "get-active-toolset", "list-toolsets", "list_mcp_tools", "run_mcp_script", "search_tools", "unequip-toolset"];
    const modern = await v2Client();
    const legacy = await v2Client(undefined, "legacy");
    const v1 = await v1Client();
    try {
      expect(modern.getProtocolEra()).toBe("modern");
      expect(legacy.getProtocolEra()).toBe("legacy");
      for (const client of [modern, legacy, v1]) expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(expected);
    } finally {
      await Promise.all([modern.close(), legacy.close(), v1.close()]);
    }
  });

  it("answers each POST of a 2025-era session on its own SSE stream (where progress, logs and elicitation of that request travel)", async () => {
    const post = (body: unknown, extra: Record<string, string> = {}) =>
      fetch(url, { method: "POST", headers: { ...headers, ...extra, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(body) });
    /** The JSON-RPC messages of an SSE response body. */
    const messages = async (response: Response): Promise<Array<Record<string, unknown>>> =>
      (await response.text())
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice("data: ".length)) as Record<string, unknown>);
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(init.headers.get("content-type")).toContain("text/event-stream");
    const session = init.headers.get("mcp-session-id") as string;
    expect((await messages(init))[0]).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18" } });
    const sessionHeaders = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders)).status).toBe(202);
    const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, sessionHeaders);
    expect(list.headers.get("content-type")).toContain("text/event-stream");
    const tools = ((await messages(list))[0] as { result: { tools: Array<{ name: string }> } }).result.tools;
    expect(tools.map((t) => t.name)).toContain("run_mcp_script");
    expect((await fetch(url, { method: "DELETE", headers: { ...headers, ...sessionHeaders } })).status).toBe(200);
  });

  it("list_mcp_tools gives TypeScript declarations, search_tools ranks tools across servers", async () => {
    const client = await v2Client();
    try {
      const listed = firstText(await client.callTool({ name: "list_mcp_tools", arguments: { server: "everything" } }));
      expect(listed).toContain('declare module "host:mcp-everything"');
      expect(listed).toMatch(/echo\(/);
      const queried = firstText(await client.callTool({ name: "list_mcp_tools", arguments: { query: "sum two numbers" } }));
      expect(queried.split("\n").find((l) => l.startsWith("get_sum("))).toBeDefined();
      const search = jsonOf<{ results: Array<{ tool: string }> }>(await client.callTool({ name: "search_tools", arguments: { query: "knowledge graph entities", limit: 3 } }));
      expect(search.results[0]?.tool).toMatch(/^memory\./);
    } finally {
      await client.close();
    }
  });

  it("run_mcp_script calls server-everything and server-memory with both calling styles", async () => {
    const script = `
      const everything = require("host:mcp-everything");
      const echoed = everything.echo({ message: "hello" });
      await tools.memory.create_entities({ entities: [{ name: "gw", entityType: "test", observations: ["seen"] }] });
      const graph = await tools.memory.read_graph({});
      console.log("entities", graph.entities.length);
      return { echoed, names: graph.entities.map((e) => e.name) };
    `;
    for (const connect of [v2Client, v1Client]) {
      const client = await connect();
      try {
        const result = await client.callTool({ name: "run_mcp_script", arguments: { script, timeoutMs: 20_000 } });
        const body = jsonOf<{ result: { echoed: unknown; names: string[] }; logs: Array<{ message: string }> }>(result);
        expect(result.isError).toBeUndefined();
        expect(JSON.stringify(body.result.echoed)).toContain("hello");
        expect(body.result.names).toContain("gw");
        expect(body.logs[0]?.message).toMatch(/^entities \d+$/);
      } finally {
        await client.close();
      }
    }
  });

  it("reports a script's error with its logs and bounds it by timeoutMs", async () => {
    const client = await v2Client();
    try {
      const failed = await client.callTool({ name: "run_mcp_script", arguments: { script: 'console.log("before"); throw new TypeError("nope")' } });
      expect(failed.isError).toBe(true);
      const body = jsonOf<{ error: { code: string; name: string; message: string }; logs: Array<{ message: string }> }>(failed);
      expect(body.error).toMatchObject({ code: "GUEST_ERROR", name: "TypeError" });
      expect(body.logs.map((l) => l.message)).toEqual(["before"]);
      const started = Date.now();
      const slow = jsonOf<{ error: { code: string } }>(await client.callTool({ name: "run_mcp_script", arguments: { script: "for (;;) {}", timeoutMs: 300 } }));
      expect(["WALL_LIMIT", "CPU_LIMIT"]).toContain(slow.error.code);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await client.close();
    }
  });

  it("builds, equips and unequips a toolset: list_changed reaches v1 and v2 clients, flattened tools pass through unchanged", async () => {
    let v1Changes = 0;
    let v2Changes = 0;
    const v1 = await v1Client(() => (v1Changes += 1));
    const v2 = await v2Client(() => (v2Changes += 1));
    const upstream = new Client({ name: "direct", version: "1" });
    await upstream.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
    try {
      // Let the v1 session's GET stream and the v2 subscription open before anything changes.
      await new Promise((r) => setTimeout(r, 300));
      const built = jsonOf<{ missing: Array<{ ref: string; reason: string }> }>(
        await v2.callTool({ name: "build-toolset", arguments: { name: "dev", tools: ["everything.echo", "everything.get-structured-content", "memory.read_graph", "everything.no_such_tool"] } }),
      );
      expect(built.missing).toEqual([{ ref: "everything.no_such_tool", reason: expect.stringContaining('no tool "no_such_tool"') }]);

      const equipped = jsonOf<{ tools: Array<{ name: string; ref: string }>; missing: unknown[] }>(await v1.callTool({ name: "equip-toolset", arguments: { name: "dev" } }));
      expect(equipped.tools.map((t) => t.name).sort()).toEqual(["everything_echo", "everything_get_structured_content", "memory_read_graph"]);
      expect(equipped.missing).toHaveLength(1);
      await waitFor(() => v1Changes > 0 && v2Changes > 0, 5_000, "list_changed on both clients");

      // A 2025-era listing is the upstream definition exactly, renamed; the 2026-07-28 wire drops
      // only what that revision no longer has (execution.taskSupport), never the fields that matter.
      const legacyListing = (await v1.listTools()).tools;
      const modernListing = (await v2.listTools()).tools;
      const upstreamTools = (await upstream.listTools()).tools;
      for (const [flat, original] of [["everything_echo", "echo"], ["everything_get_structured_content", "get-structured-content"]] as const) {
        const theirs = upstreamTools.find((t) => t.name === original);
        expect({ ...legacyListing.find((t) => t.name === flat), name: original }).toEqual(theirs);
        const modern = modernListing.find((t) => t.name === flat);
        for (const field of ["title", "description", "inputSchema", "outputSchema", "annotations"] as const) expect(modern?.[field]).toEqual(theirs?.[field]);
      }

      const viaGateway = await v1.callTool({ name: "everything_get_structured_content", arguments: { location: "Chicago" } });
      const direct = await upstream.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
      expect(viaGateway.structuredContent).toEqual(direct.structuredContent);
      expect(viaGateway.content).toEqual(direct.content);
      const echoed = await v2.callTool({ name: "everything_echo", arguments: { message: "flat" } });
      expect(echoed.content).toEqual((await upstream.callTool({ name: "echo", arguments: { message: "flat" } })).content);

      const invalid = await v2.callTool({ name: "everything_echo", arguments: { message: 42 } });
      expect(invalid.isError).toBe(true);
      expect(firstText(invalid)).toContain("MCP_INVALID_ARGUMENTS");

      const active = jsonOf<{ toolset: string; missing: Array<{ ref: string }> }>(await v2.callTool({ name: "get-active-toolset", arguments: {} }));
      expect(active.toolset).toBe("dev");
      expect(active.missing.map((m) => m.ref)).toEqual(["everything.no_such_tool"]);

      const before = { v1: v1Changes, v2: v2Changes };
      await v2.callTool({ name: "unequip-toolset", arguments: {} });
      await waitFor(() => v1Changes > before.v1 && v2Changes > before.v2, 5_000, "list_changed after unequip");
      expect((await v1.listTools()).tools.some((t) => t.name === "everything_echo")).toBe(false);
      // No longer the gateway's tool: the spec's unknown-tool protocol error, not a tool result.
      await expect(v1.callTool({ name: "everything_echo", arguments: { message: "x" } })).rejects.toMatchObject({ code: -32602, data: { code: "GATEWAY_TOOL_UNKNOWN" } });

      const toolsets = jsonOf<{ toolsets: Array<{ name: string; equipped: boolean }> }>(await v1.callTool({ name: "list-toolsets", arguments: {} }));
      expect(toolsets.toolsets).toEqual([expect.objectContaining({ name: "dev", equipped: false })]);
      await v1.callTool({ name: "delete-toolset", arguments: { name: "dev" } });
      const unknown = await v1.callTool({ name: "equip-toolset", arguments: { name: "dev" } });
      expect(firstText(unknown)).toContain("GATEWAY_TOOLSET_UNKNOWN");
    } finally {
      await Promise.all([v1.close(), v2.close(), upstream.close()]);
    }
  });

  it("logs every call with request id, session, tool, duration and status, never argument values", async () => {
    const client = await v1Client();
    try {
      await client.callTool({ name: "run_mcp_script", arguments: { script: 'return "s3cr3t-argument-value"' } });
    } finally {
      await client.close();
    }
    const lines = (await readFile(running.logFile as string, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const call = lines.filter((l) => l.method === "tools/call" && l.tool === "run_mcp_script").at(-1);
    expect(call).toMatchObject({ status: "ok", argKeys: ["script"] });
    expect(typeof call?.requestId).toBe("string");
    expect(typeof call?.session).toBe("string");
    expect(typeof call?.durationMs).toBe("number");
    expect(JSON.stringify(lines)).not.toContain("s3cr3t-argument-value");
  });
});
