import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { FIXTURE, fixtureServer, jsonOf, makeHome, SERVE_ENTRY, VITE_NODE, waitFor, type TestHome } from "../gateway/helpers.js";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlp-receiver.js";
import type { ReceivedSpan } from "../support/otlp-decode.js";

const TOKEN = "telemetry-test-token-0123456789";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";
const RECEIVER_KEY = "receiver-key-s3cr3t-value";
/** Three upstream calls (two on a stdio server, one on an HTTP server) whose argument values must never be exported. */
const SCRIPT = `
  const fx = require("host:mcp-fx");
  const web = require("host:mcp-web");
  return [fx.echo({ text: "arg-value-alpha" }), fx.echo({ text: "arg-value-bravo" }), web.echo({ text: "arg-value-charlie" })];
`;

/** The fixture over streamable HTTP behind a pass-through proxy that records the traceparent of each tools/call it forwards. */
async function startRecordingUpstream(): Promise<{ url: string; traceparents: string[]; close(): Promise<void> }> {
  const fixture = spawn(process.execPath, [FIXTURE, "--transport", "http"], { stdio: ["pipe", "pipe", "ignore"] });
  const [line] = (await once(createInterface({ input: fixture.stdout }), "line")) as [string];
  const target = new URL((JSON.parse(line) as { url: string }).url);
  const traceparents: string[] = [];
  const proxy: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.toString("utf8").includes('"tools/call"')) traceparents.push(String(req.headers.traceparent ?? ""));
      const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      });
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    traceparents,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      fixture.stdin.end();
      if (fixture.exitCode === null) await once(fixture, "exit");
    },
  };
}

/** `mcpvm serve --http` as a real process; resolves with its URL once it listens. */
async function serveHttp(env: Record<string, string>): Promise<{ url: URL; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [VITE_NODE, SERVE_ENTRY, "--", "--http", "127.0.0.1:0", "--token", TOKEN, "--log-level", "warn"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const url = await new Promise<URL>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on("line", (l) => {
      stderr += `${l}\n`;
      const match = /listening on (\S+)/.exec(l);
      if (match !== null) resolve(new URL(match[1] as string));
    });
    child.once("exit", (code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

function byName(spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] {
  return spans.filter((s) => s.name === name);
}

/** The span tree of one run_mcp_script call: gateway request → guest run → three upstream calls. */
function checkRunTree(spans: readonly ReceivedSpan[], root: ReceivedSpan): { upstream: ReceivedSpan[] } {
  const [run, ...extraRuns] = spans.filter((s) => s.name === "mcpvm.sandbox.run" && s.parentSpanId === root.spanId);
  expect(extraRuns).toEqual([]);
  expect(run).toBeDefined();
  expect(run?.traceId).toBe(root.traceId);
  expect(run?.attributes).toMatchObject({ "mcpvm.sandbox.engine": "quickjs", "mcpvm.outcome": "ok", "mcpvm.sandbox.filename": "run_mcp_script.js" });
  expect(run?.attributes["mcpvm.sandbox.host_calls"]).toBeGreaterThanOrEqual(3);
  const upstream = spans.filter((s) => s.parentSpanId === run?.spanId);
  expect(upstream.map((s) => s.name)).toEqual(["tools/call echo", "tools/call echo", "tools/call echo"]);
  for (const call of upstream) {
    expect(call.traceId).toBe(root.traceId);
    expect(call.kind).toBe(3); // CLIENT
    expect(call.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool", "mcpvm.outcome": "ok" });
  }
  expect(upstream.map((s) => `${s.attributes["mcpvm.server"]}/${s.attributes["mcpvm.upstream.transport"]}`).sort()).toEqual(["fx/stdio", "fx/stdio", "web/http"]);
  return { upstream };
}

describe("traces and metrics exported to a real OTLP/HTTP receiver", () => {
  let home: TestHome;
  let receiver: OtlpReceiver;
  let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startRecordingUpstream();
    home = await makeHome({ servers: { fx: fixtureServer("/dev/null"), web: { type: "http", url: upstream.url } } });
  }, 120_000);

  afterAll(async () => {
    await upstream?.close();
    await receiver?.close();
    await home?.cleanup();
  });

  it("serve --http, OTLP http/protobuf: HTTP span under the client's traceparent, then the call, the run and three upstream calls; traceparent sent upstream; /metrics behind the token", { timeout: 240_000 }, async () => {
    const gateway = await serveHttp({
      ...home.env,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_HEADERS: `x-receiver-key=${RECEIVER_KEY}`,
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_METRICS_EXPORTER: "prometheus",
      OTEL_SERVICE_NAME: "mcpvm-under-test",
    });
    try {
      const client = new Client({ name: "telemetry-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
      const headers = { authorization: `Bearer ${TOKEN}`, traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01` };
      await client.connect(new StreamableHTTPClientTransport(gateway.url, { requestInit: { headers } }));
      const result = await client.callTool({ name: "run_mcp_script", arguments: { script: SCRIPT, timeoutMs: 60_000 } });
      expect(jsonOf<{ result: string[] }>(result).result).toEqual(["arg-value-alpha", "arg-value-bravo", "arg-value-charlie"]);

      const metricsUrl = new URL("/metrics", gateway.url);
      expect((await fetch(metricsUrl)).status).toBe(401);
      const scrape = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      expect(text).toMatch(/^mcpvm_upstream_calls_total\{[^}]*mcpvm_server="fx"[^}]*\} 2$/m);
      expect(text).toMatch(/^mcpvm_upstream_calls_total\{[^}]*mcpvm_server="web"[^}]*\} 1$/m);
      expect(text).toMatch(/^mcp_client_operation_duration_bucket\{[^}]*gen_ai_tool_name="echo"/m);
      expect(text).toMatch(/^mcpvm_gateway_calls_total\{[^}]*gen_ai_tool_name="run_mcp_script"[^}]*\} 1$/m);
      expect(text).toMatch(/^mcpvm_sandbox_runs_total\{[^}]*mcpvm_sandbox_engine="quickjs"[^}]*\} 1$/m);
      expect(text).toMatch(/^mcpvm_upstream_state\{[^}]*mcpvm_server="fx"[^}]*mcpvm_upstream_state="connected"[^}]*\} 1$/m);
      expect(text).not.toContain("arg-value");
      await client.close();

      // Spans are exported in batches as they end: the HTTP span ends after the response, so it can
      // come in a later batch than the upstream calls.
      const exported = () => {
        const spans = receiver.spans();
        const [script] = byName(spans, "tools/call run_mcp_script");
        return byName(spans, "tools/call echo").length >= 3 && script !== undefined && spans.some((s) => s.spanId === script.parentSpanId);
      };
      await waitFor(exported, 30_000, "three upstream spans, the script's call and its HTTP span exported");
      const spans = receiver.spans();
      const [call] = byName(spans, "tools/call run_mcp_script");
      expect(call?.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "run_mcp_script", "mcpvm.outcome": "ok", "mcpvm.client.name": "telemetry-test" });
      const http = spans.find((s) => s.spanId === call?.parentSpanId);
      expect(http).toMatchObject({ name: "POST /mcp", kind: 2, traceId: TRACE_ID, parentSpanId: CLIENT_SPAN });
      expect(http?.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/mcp", "http.response.status_code": 200 });
      expect(call?.traceId).toBe(TRACE_ID);
      const { upstream: calls } = checkRunTree(spans, call as ReceivedSpan);
      expect(http?.resource["service.name"]).toBe("mcpvm-under-test");

      // The HTTP upstream got the trace context of its own client span.
      const web = calls.find((s) => s.attributes["mcpvm.server"] === "web");
      expect(upstream.traceparents).toContain(`00-${TRACE_ID}-${web?.spanId}-01`);

      const traceExports = receiver.exports.filter((e) => e.path === "/v1/traces");
      expect(traceExports.every((e) => e.contentType === "application/x-protobuf" && e.headers["x-receiver-key"] === RECEIVER_KEY)).toBe(true);
      expect(Buffer.concat(traceExports.map((e) => e.body)).toString("latin1")).not.toContain("arg-value");
    } finally {
      await gateway.stop();
    }
  });

  it("serve over stdio, OTLP http/json: _meta.traceparent is the parent, metrics arrive over OTLP, spans flush on exit", { timeout: 240_000 }, async () => {
    receiver.exports.length = 0;
    const client = new Client({ name: "stdio-telemetry-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [VITE_NODE, SERVE_ENTRY, "--", "--log-level", "warn"],
      env: { ...home.env, OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_METRIC_EXPORT_INTERVAL: "200", OTEL_BSP_SCHEDULE_DELAY: "60000" },
      stderr: "ignore",
    });
    await client.connect(transport);
    const metaTrace = "0af7651916cd43dd8448eb211c80319c";
    const metaParent = "b7ad6b7169203331";
    const result = await client.callTool({ name: "run_mcp_script", arguments: { script: SCRIPT, timeoutMs: 60_000 }, _meta: { traceparent: `00-${metaTrace}-${metaParent}-01` } });
    expect(jsonOf<{ result: string[] }>(result).result).toHaveLength(3);
    await waitFor(() => receiver.metricNames().includes("mcpvm.upstream.calls"), 30_000, "metrics over OTLP/JSON");
    // The batch delay is a minute: these spans can only arrive by the flush at shutdown.
    expect(receiver.spans()).toEqual([]);
    await client.close();
    await waitFor(() => byName(receiver.spans(), "tools/call echo").length >= 3, 30_000, "spans flushed at shutdown");
    const spans = receiver.spans();
    const [call] = byName(spans, "tools/call run_mcp_script");
    expect(call).toMatchObject({ traceId: metaTrace, parentSpanId: metaParent, kind: 2 });
    expect(call?.attributes).toMatchObject({ "mcpvm.client.name": "stdio-telemetry-test", "network.transport": "pipe" });
    checkRunTree(spans, call as ReceivedSpan);
    expect(receiver.exports.every((e) => e.contentType.startsWith("application/json"))).toBe(true);
    expect(new Set(receiver.metricNames())).toEqual(
      new Set(["mcpvm.gateway.calls", "mcp.server.operation.duration", "mcpvm.upstream.calls", "mcp.client.operation.duration", "mcpvm.upstream.state", "mcpvm.sandbox.runs", "mcpvm.sandbox.run.duration"]),
    );
    expect(Buffer.concat(receiver.exports.map((e) => e.body)).toString("utf8")).not.toContain("arg-value");
  });
});
