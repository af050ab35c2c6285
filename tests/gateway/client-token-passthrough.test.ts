import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { runCli } from "../../src/cli/main.js";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { everythingServer, makeHome, memoryServer, waitFor, type TestHome } from "./helpers.js";

const TOKEN = "gateway-token-0123456789abcdef";
const STATIC_URI = "demo://resource/static/document/architecture.md";
const TEMPLATE = "demo://resource/dynamic/text/{resourceId}";

/**
 * A client token limited to some servers (or to a toolset) reaches nothing else through the rest of
 * MCP either: resources, templates, prompts, completions, subscriptions and upstream log messages of
 * other servers are neither listed nor served (they were, to any token, before).
 */
describe("client tokens limit resources, prompts, completions and logs", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  const tokens: Record<string, string> = {};
  const open: Client[] = [];

  beforeAll(async () => {
    const memoryDir = await mkdtemp(join(tmpdir(), "mcpvm-gw-memory-"));
    home = await makeHome({ servers: { everything: everythingServer(), memory: memoryServer(memoryDir) } });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "echo-only", tools: ["everything.echo"] });
    for (const [name, ...flags] of [["memory-only", "--servers", "memory"], ["echo-only", "--toolset", "echo-only"], ["everything-only", "--servers", "everything"], ["batcher", "--servers", "everything", "--rate", "5/m"]] as const) {
      const io = captureIo(home.env);
      expect(await runCli(["gateway", "token", "create", name, ...flags], io), io.stderrText()).toBe(0);
      tokens[name] = io.stdoutText().trim();
    }
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", pretty: false });
    url = new URL(running.url as string);
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await running?.close();
    await home?.cleanup();
  });

  async function client(token: string): Promise<Client> {
    const c = new Client({ name: "passthrough-scope-test", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    open.push(c);
    return c;
  }

  async function refusal(work: Promise<unknown>): Promise<string> {
    return work.then(
      () => "answered",
      (error: unknown) => String((error as Error).message),
    );
  }

  it.each(["memory-only", "echo-only"])("a %s token lists and reads none of everything's resources, templates or prompts", async (name) => {
    const c = await client(tokens[name] as string);
    // server-memory lists a resource of its own (memory://knowledge-graph): the memory-only token sees that one.
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(name === "memory-only" ? ["memory://knowledge-graph"] : []);
    expect((await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).filter((t) => t.startsWith("demo:"))).toEqual([]);
    expect((await c.listPrompts()).prompts.map((p) => p.name).filter((p) => p.startsWith("everything_"))).toEqual([]);
    expect(await refusal(c.readResource({ uri: STATIC_URI }))).toMatch(/Resource not found/);
    expect(await refusal(c.readResource({ uri: "demo://resource/dynamic/text/1" }))).toMatch(/Resource not found/);
    expect(await refusal(c.getPrompt({ name: "everything_simple_prompt" }))).toMatch(/no prompt "everything_simple_prompt"/);
    expect(await refusal(c.complete({ ref: { type: "ref/prompt", name: "everything_completable_prompt" }, argument: { name: "department", value: "E" } }))).toMatch(/no prompt/);
    expect(await refusal(c.complete({ ref: { type: "ref/resource", uri: TEMPLATE }, argument: { name: "resourceId", value: "1" } }))).toMatch(/no server behind this gateway has the resource template/i);
    expect(await refusal(c.subscribeResource({ uri: "demo://resource/dynamic/text/1" }))).toMatch(/No server behind this gateway serves/);
  });

  it("a token limited to everything reaches its resources, prompts and completions as the gateway token does", async () => {
    const c = await client(tokens["everything-only"] as string);
    expect((await c.listResources()).resources.map((r) => r.uri)).toContain(STATIC_URI);
    expect((await c.readResource({ uri: "demo://resource/dynamic/text/1" })).contents[0]?.uri).toBe("demo://resource/dynamic/text/1");
    expect((await c.getPrompt({ name: "everything_simple_prompt" })).messages.length).toBeGreaterThan(0);
    expect((await c.complete({ ref: { type: "ref/resource", uri: TEMPLATE }, argument: { name: "resourceId", value: "1" } })).completion.values).toContain("1");
  });

  it("the audit entry of a call confirmed by policy names the client token that made it", async () => {
    const c = await client(tokens["memory-only"] as string);
    const script = 'return require("host:mcp-memory").create_entities({ entities: [{ name: "audited", entityType: "t", observations: ["o"] }] })';
    await c.callTool({ name: "run_mcp_script", arguments: { script } });
    const entries = (await readFile(join(home.dir, "audit-log.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { event: string; details?: Record<string, unknown> });
    const confirmed = entries.filter((e) => e.event === "mcp.call.confirm" && e.details?.tool === "create_entities");
    expect(confirmed.map((e) => e.details?.client)).toEqual(["memory-only"]);
  });

  it("a JSON-RPC batch counts each of its messages against the client's rate", async () => {
    const headers = { authorization: `Bearer ${tokens.batcher as string}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
    const init = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "batch", version: "1" } } }) });
    await init.text();
    const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id") ?? "" };
    const batch = (n: number) => fetch(url, { method: "POST", headers: session, body: JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/list", params: {} }))) });
    // 5 a minute: initialize took one, and nothing refills during the test.
    const tooBig = await batch(6);
    expect(tooBig.status).toBe(429);
    expect(await tooBig.text()).toMatch(/send at most 5 at once/);
    const first = await batch(2);
    await first.text();
    expect(first.status).toBe(200);
    const second = await batch(2);
    expect(second.status).toBe(429);
    expect(await second.text()).toMatch(/a batch counts each of its 2 messages/);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("revoking a client token closes its sessions' open notification streams, not only its next request", { timeout: 30_000 }, async () => {
    const made = captureIo(home.env);
    expect(await runCli(["gateway", "token", "create", "streamer", "--servers", "everything"], made)).toBe(0);
    const headers = { authorization: `Bearer ${made.stdoutText().trim()}`, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
    const init = await fetch(url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "streamer", version: "1" } } }) });
    await init.text();
    const stream = await fetch(url, { headers: { ...headers, accept: "text/event-stream", "mcp-session-id": init.headers.get("mcp-session-id") ?? "" } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let ended = false;
    const drained = (async () => {
      while (!(await reader.read()).done);
      ended = true;
    })().catch(() => (ended = true));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(ended).toBe(false);
    const revoked = captureIo(home.env);
    expect(await runCli(["gateway", "token", "revoke", "streamer"], revoked)).toBe(0);
    await waitFor(() => ended, 10_000, "the revoked client's notification stream to close");
    await drained;
  });

  it("an upstream's log message outside any call never goes to the one call in flight if its client cannot reach that server", { timeout: 40_000 }, async () => {
    const admin = await client(TOKEN);
    const memoryOnly = await client(tokens["memory-only"] as string);
    const heard: string[] = [];
    memoryOnly.setNotificationHandler("notifications/message", (n) => void heard.push(String(n.params.logger)));
    const toggle = { name: "run_mcp_script", arguments: { script: 'return require("host:mcp-everything").toggle_simulated_logging({})' } };
    await admin.callTool(toggle);
    try {
      // The only call in flight for 7 s (server-everything logs every 5 s), on memory; at most 500
      // calls, within the run's budget of 1,000 however fast this machine answers them.
      const script = "const end = Date.now() + 7000; let n = 0; while (Date.now() < end) { if (n < 500) { require(\"host:mcp-memory\").read_graph({}); n++; } } return n;";
      const result = await memoryOnly.callTool({ name: "run_mcp_script", arguments: { script, timeoutMs: 20_000 } }, { timeout: 30_000 });
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      expect(heard.filter((logger) => logger.startsWith("everything"))).toEqual([]);
    } finally {
      await admin.callTool(toggle);
    }
  });

  it("a toolset narrowed while the gateway runs narrows the clients bound to it at once", async () => {
    const store = new ToolsetStore(join(home.dir, "toolsets.json"));
    await store.save({ name: "narrowing", tools: ["everything.echo", "everything.get-sum"] });
    const made = captureIo(home.env);
    expect(await runCli(["gateway", "token", "create", "narrowed", "--toolset", "narrowing"], made)).toBe(0);
    const c = await client(made.stdoutText().trim());
    const names = async () => (await c.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith("everything_"));
    expect(await names()).toEqual(["everything_echo", "everything_get_sum"]);
    expect((await c.callTool({ name: "everything_echo", arguments: { message: "before" } })).isError).not.toBe(true);
    await store.save({ name: "narrowing", tools: ["everything.get-sum"] });
    expect(await names()).toEqual(["everything_get_sum"]);
    // No longer this client's tool: the spec's unknown-tool protocol error.
    await expect(c.callTool({ name: "everything_echo", arguments: { message: "after" } })).rejects.toMatchObject({ code: -32602, data: { code: "GATEWAY_TOOL_UNKNOWN" } });
    const script = await c.callTool({ name: "run_mcp_script", arguments: { script: 'return require("host:mcp-everything").echo({ message: "after" })' } });
    expect((script.structuredContent as { error?: { message?: string } }).error?.message).toMatch(/has no tool "echo"/);
  });

  it("/health details and /metrics: a limited token sees only its servers, and no metrics of the whole gateway", async () => {
    const get = async (path: string, token: string) => {
      const res = await fetch(new URL(path, url), { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const limited = await get("/health", tokens["memory-only"] as string);
    expect((limited.body.servers as Array<{ name: string }>).map((s) => s.name)).toEqual(["memory"]);
    expect(limited.body).not.toHaveProperty("sessions");
    expect(((await get("/health", tokens["echo-only"] as string)).body.servers as unknown[]).length).toBe(0);
    expect(((await get("/health", TOKEN)).body.servers as Array<{ name: string }>).map((s) => s.name).sort()).toEqual(["everything", "memory"]);
    const metrics = await get("/metrics", tokens["memory-only"] as string);
    expect(metrics.status).toBe(403);
    expect(JSON.stringify(metrics.body)).toMatch(/scrape with the gateway token/);
    // The gateway token is not refused (404 here: this gateway runs without the Prometheus exporter).
    expect((await get("/metrics", TOKEN)).status).toBe(404);
  });

  it("an upstream's log messages not tied to a call go only to clients that reach that server", { timeout: 30_000 }, async () => {
    const received = { admin: [] as string[], memoryOnly: [] as string[] };
    const admin = await client(TOKEN);
    const memoryOnly = await client(tokens["memory-only"] as string);
    admin.setNotificationHandler("notifications/message", (n) => void received.admin.push(String(n.params.logger)));
    memoryOnly.setNotificationHandler("notifications/message", (n) => void received.memoryOnly.push(String(n.params.logger)));
    await memoryOnly.setLoggingLevel("debug");
    await admin.setLoggingLevel("debug");
    // server-everything then logs every 5 s on its own, outside any call.
    await admin.callTool({ name: "run_mcp_script", arguments: { script: 'return require("host:mcp-everything").toggle_simulated_logging({})' } });
    // Messages during the call go to the call's client; wait for one sent after it, to every client that set a level.
    const duringCall = received.admin.length;
    await waitFor(() => received.admin.slice(duringCall).some((logger) => logger.startsWith("everything")), 15_000, "a log message of everything at the gateway token's client");
    expect(received.memoryOnly.filter((logger) => logger.startsWith("everything"))).toEqual([]);
    await admin.callTool({ name: "run_mcp_script", arguments: { script: 'return require("host:mcp-everything").toggle_simulated_logging({})' } });
  });
});
