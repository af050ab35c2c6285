import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolsetStore } from "../../src/gateway/index.js";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlp-receiver.js";
import { exchange, fastLaneCalls, modernCall, modernHeaders, TOKEN } from "./fast-lane-support.js";
import { fixtureServer, makeHome, SERVE_ENTRY, VITE_NODE, waitFor, type TestHome } from "./helpers.js";

const TRACE_ID = "5bf92f3577b34da6a3ce929d0e0e4737";
const CLIENT_SPAN = "10f067aa0ba902b8";

/**
 * Traces and metrics of a call the fast lane answers: `mcpvm serve --http` as a real process with
 * OTLP/HTTP export to a receiver in this process and the Prometheus endpoint on.
 */
describe("fast lane: spans and metrics as on the SDK path", () => {
  let home: TestHome;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    home = await makeHome({ servers: { fx: fixtureServer("/dev/null") } });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "t", tools: ["fx.echo"] });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await home?.cleanup();
  });

  it("HTTP span under the client's traceparent, the tools/call span with client and outcome, the upstream call; calls counted; no argument values", { timeout: 240_000 }, async () => {
    const env = {
      ...home.env,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_METRICS_EXPORTER: "prometheus",
    };
    const child = spawn(process.execPath, [VITE_NODE, SERVE_ENTRY, "--", "--http", "127.0.0.1:0", "--token", TOKEN, "--toolset", "t", "--log-level", "warn"], { env, stdio: ["ignore", "ignore", "pipe"] });
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        createInterface({ input: child.stderr }).on("line", (line) => {
          const match = /listening on (\S+)/.exec(line);
          if (match !== null) resolve(new URL(match[1] as string));
        });
        child.once("exit", (code) => reject(new Error(`serve exited (${code}) before listening`)));
      });
      const answer = await exchange(url, { ...modernHeaders("fx_echo"), traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01` }, modernCall(1, "fx_echo", { text: "arg-value-delta" }));
      expect(answer.status).toBe(200);
      expect((await fastLaneCalls(url)).calls).toBe(1);

      const scrape = await fetch(new URL("/metrics", url), { headers: { authorization: `Bearer ${TOKEN}` } });
      const text = await scrape.text();
      expect(text).toMatch(/^mcpvm_gateway_calls_total\{[^}]*gen_ai_tool_name="fx_echo"[^}]*\} 1$/m);
      expect(text).toMatch(/^mcpvm_upstream_calls_total\{[^}]*mcpvm_server="fx"[^}]*\} 1$/m);
      expect(text).not.toContain("arg-value");

      await waitFor(() => receiver.spans().some((s) => s.name === "tools/call echo"), 30_000, "the upstream span exported");
      const spans = receiver.spans();
      const call = spans.find((s) => s.name === "tools/call fx_echo");
      expect(call?.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "fx_echo", "mcpvm.outcome": "ok", "mcpvm.client.name": "fast-lane-test" });
      const http = spans.find((s) => s.spanId === call?.parentSpanId);
      expect(http).toMatchObject({ name: "POST /mcp", traceId: TRACE_ID, parentSpanId: CLIENT_SPAN });
      const upstream = spans.find((s) => s.name === "tools/call echo");
      expect(upstream?.traceId).toBe(TRACE_ID);
      expect(upstream?.attributes).toMatchObject({ "mcpvm.server": "fx", "mcpvm.upstream.transport": "stdio" });
      expect(Buffer.concat(receiver.exports.map((e) => e.body)).toString("latin1")).not.toContain("arg-value");
    } finally {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    }
  });
});
