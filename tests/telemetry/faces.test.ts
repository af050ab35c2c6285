import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { runCli } from "../../src/cli/main.js";
import { startGateway, ToolsetStore } from "../../src/gateway/index.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { NOOP_TELEMETRY, telemetry } from "../../src/telemetry/index.js";
import { fixtureServer, makeHome, waitFor, type TestHome } from "../gateway/helpers.js";
import { captureIo } from "../support/cli-io.js";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlp-receiver.js";

const TOKEN = "faces-test-token-0123456789abcdef";

describe("telemetry on the other faces", () => {
  let home: TestHome;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    home = await makeHome({ servers: { fx: fixtureServer("/dev/null") } });
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
    await home?.cleanup();
  });

  it("without OTEL_* variables the gateway's /metrics says how to turn it on (behind the token), and nothing is installed", async () => {
    const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", pretty: false });
    try {
      expect(telemetry()).toBe(NOOP_TELEMETRY);
      const url = new URL("/metrics", running.url);
      expect((await fetch(url)).status).toBe(401);
      const off = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(off.status).toBe(404);
      expect(((await off.json()) as { error: string }).error).toContain("OTEL_METRICS_EXPORTER=prometheus");
    } finally {
      await running.close();
    }
    expect(receiver.exports).toEqual([]);
  }, 60_000);

  it("mcpvm run exports a span for the run and one per upstream call, flushed before the command returns; a bad variable is a config error (exit 3)", async () => {
    const env = { ...home.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
    const io = captureIo(env);
    const code = await runCli(["--yes", "run", "-e", 'const fx = require("host:mcp-fx"); return fx.echo({ text: "run-arg-value" });'], io);
    expect(code, io.stderrText()).toBe(ExitCode.Ok);
    expect(io.stdoutText().trim()).toBe("run-arg-value");
    // Flushed at shutdown inside the command: no waiting for the batch delay.
    const spans = receiver.spans();
    const run = spans.find((s) => s.name === "mcpvm.sandbox.run");
    expect(run?.attributes).toMatchObject({ "mcpvm.sandbox.filename": "eval.js", "mcpvm.outcome": "ok" });
    expect(run?.parentSpanId).toBe("");
    expect(spans.filter((s) => s.parentSpanId === run?.spanId).map((s) => s.name)).toEqual(["tools/call echo"]);
    expect(Buffer.concat(receiver.exports.map((e) => e.body)).toString("utf8")).not.toContain("run-arg-value");
    expect(telemetry()).toBe(NOOP_TELEMETRY);

    const bad = captureIo({ ...env, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(await runCli(["run", "-e", "1"], bad)).toBe(ExitCode.Config);
    expect(bad.stderrText()).toContain("CONFIG_TELEMETRY_INVALID");
  }, 120_000);

  it("errors: a tool's isError is tool_error, an unknown tool is an error whose metric label is _unknown, a failed run carries its code; a 2025 session is traced like a modern one", async () => {
    receiver.exports.length = 0;
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "errs", tools: ["fx.fail", "fx.echo"] });
    const env = { ...home.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_METRICS_EXPORTER: "prometheus" };
    const running = await startGateway({ env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, toolset: "errs", logLevel: "error", pretty: false });
    try {
      const client = new Client({ name: "errors-test", version: "1" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      expect((await client.callTool({ name: "fx_fail", arguments: { message: "failing-arg-value" } })).isError).toBe(true);
      await expect(client.callTool({ name: "no_such_tool_4711", arguments: {} })).rejects.toMatchObject({ code: -32602 });
      expect((await client.callTool({ name: "run_mcp_script", arguments: { script: "for (;;) {}", timeoutMs: 300 } })).isError).toBe(true);
      const text = await (await fetch(new URL("/metrics", running.url), { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      expect(text).toMatch(/^mcpvm_gateway_errors_total\{[^}]*gen_ai_tool_name="fx_fail"[^}]*mcpvm_outcome="tool_error"[^}]*\} 1$/m);
      expect(text).toMatch(/^mcpvm_upstream_errors_total\{[^}]*mcpvm_server="fx"[^}]*gen_ai_tool_name="fail"[^}]*mcpvm_outcome="tool_error"[^}]*\} 1$/m);
      expect(text).toMatch(/^mcpvm_gateway_errors_total\{[^}]*gen_ai_tool_name="_unknown"[^}]*error_type="GATEWAY_TOOL_UNKNOWN"[^}]*\} 1$/m);
      expect(text).not.toContain("no_such_tool_4711");
      expect(text).toMatch(/^mcpvm_sandbox_runs_total\{[^}]*mcpvm_outcome="error"[^}]*error_type="(WALL|CPU)_LIMIT"[^}]*\} 1$/m);
      await client.close();
      // A 2025-era session (sessionful transport): the same tree under the client's traceparent.
      const legacy = new Client({ name: "legacy-client", version: "1" }, { versionNegotiation: { mode: "legacy" } });
      const traceparent = "00-11111111111111111111111111111111-2222222222222222-01";
      await legacy.connect(new StreamableHTTPClientTransport(new URL(running.url as string), { requestInit: { headers: { authorization: `Bearer ${TOKEN}`, traceparent } } }));
      expect(legacy.getProtocolEra()).toBe("legacy");
      await legacy.callTool({ name: "fx_echo", arguments: { text: "legacy-arg-value" } });
      await legacy.close();
      await waitFor(() => receiver.spans().some((s) => s.name === "mcpvm.sandbox.run") && receiver.spans().some((s) => s.name === "tools/call fx_echo"), 30_000, "the run and legacy spans");
      const all = receiver.spans();
      const direct = all.find((s) => s.name === "tools/call fx_echo");
      expect(direct?.attributes).toMatchObject({ "mcpvm.client.name": "legacy-client", "mcpvm.outcome": "ok" });
      expect(typeof direct?.attributes["mcp.session.id"]).toBe("string");
      expect(all.find((s) => s.spanId === direct?.parentSpanId)).toMatchObject({ name: "POST /mcp", traceId: "11111111111111111111111111111111", parentSpanId: "2222222222222222" });
      expect(all.filter((s) => s.parentSpanId === direct?.spanId).map((s) => s.name)).toEqual(["tools/call echo"]);
      const spans = receiver.spans();
      const unknown = spans.find((s) => s.name === "tools/call no_such_tool_4711");
      expect(unknown).toMatchObject({ status: 2, attributes: { "mcpvm.outcome": "error", "error.type": "GATEWAY_TOOL_UNKNOWN" } });
      const upstreamFail = spans.find((s) => s.name === "tools/call fail");
      expect(upstreamFail).toMatchObject({ status: 2, kind: 3, attributes: { "mcpvm.outcome": "tool_error", "error.type": "tool_error" } });
      expect(spans.find((s) => s.spanId === upstreamFail?.parentSpanId)?.name).toBe("tools/call fx_fail");
      expect(String(spans.find((s) => s.name === "mcpvm.sandbox.run")?.attributes["error.type"])).toMatch(/^(WALL|CPU)_LIMIT$/);
      expect(Buffer.concat(receiver.exports.map((e) => e.body)).toString("utf8")).not.toMatch(/failing-arg-value|legacy-arg-value/);
    } finally {
      await running.close();
    }
  }, 120_000);
});
