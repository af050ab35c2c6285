import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { startGateway } from "../../src/gateway/index.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { NOOP_TELEMETRY, telemetry } from "../../src/telemetry/index.js";
import { fixtureServer, makeHome, type TestHome } from "../gateway/helpers.js";
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
});
