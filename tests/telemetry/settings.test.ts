import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTelemetrySettings, startTelemetry, NOOP_TELEMETRY, telemetry } from "../../src/telemetry/index.js";
import { parseKeyValueList } from "../../src/telemetry/settings.js";

describe("OTEL_* variables → telemetry settings", () => {
  it("asks for nothing (no SDK) without an endpoint or a prometheus exporter, or with OTEL_SDK_DISABLED", () => {
    expect(parseTelemetrySettings({})).toBeUndefined();
    expect(parseTelemetrySettings({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBeUndefined();
    expect(parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toBeUndefined();
    expect(parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" })).toBeUndefined();
  });

  it("derives the signal URLs from the base endpoint and lets the signal-specific ones win, used as given", () => {
    const base = parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" });
    expect(base?.traces?.url).toBe("http://collector:4318/v1/traces");
    expect(base?.metrics?.otlp?.url).toBe("http://collector:4318/v1/metrics");
    expect(base?.metrics?.prometheus).toBe(false);
    const specific = parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/custom" });
    expect(specific?.traces?.url).toBe("https://traces.example/custom");
    const tracesOnly = parseTelemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" });
    expect(tracesOnly?.traces).toBeDefined();
    expect(tracesOnly?.metrics).toBeUndefined();
  });

  it("honours the protocol per signal, defaulting to http/protobuf, and refuses grpc clearly", () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/protobuf" };
    expect(parseTelemetrySettings(env)?.traces?.protocol).toBe("http/json");
    expect(parseTelemetrySettings(env)?.metrics?.otlp?.protocol).toBe("http/protobuf");
    expect(parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })?.traces?.protocol).toBe("http/protobuf");
    expect(() => parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      expect.objectContaining({ code: "CONFIG_TELEMETRY_INVALID", message: expect.stringContaining("OTEL_EXPORTER_OTLP_PROTOCOL") }),
    );
  });

  it("merges headers (signal-specific over generic), percent-decoded, and lists their values as secrets", () => {
    const settings = parseTelemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "api-key=generic%20key,x-team=core",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "api-key=traces-key",
    });
    expect(settings?.traces?.headers).toEqual({ "api-key": "traces-key", "x-team": "core" });
    expect(settings?.metrics?.otlp?.headers).toEqual({ "api-key": "generic key", "x-team": "core" });
    expect(settings?.secrets).toEqual(expect.arrayContaining(["traces-key", "generic key", "core"]));
    expect(() => parseKeyValueList("OTEL_EXPORTER_OTLP_HEADERS", "novalue")).toThrow(expect.objectContaining({ code: "CONFIG_TELEMETRY_INVALID" }));
  });

  it("reads the batch span processor, export interval and timeout variables, and checks them", () => {
    const settings = parseTelemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
      OTEL_BSP_SCHEDULE_DELAY: "250",
      OTEL_BSP_EXPORT_TIMEOUT: "1000",
      OTEL_BSP_MAX_QUEUE_SIZE: "100",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "10",
      OTEL_METRIC_EXPORT_INTERVAL: "5000",
      OTEL_EXPORTER_OTLP_TIMEOUT: "2000",
    });
    expect(settings?.traces?.batch).toEqual({ scheduledDelayMillis: 250, exportTimeoutMillis: 1000, maxQueueSize: 100, maxExportBatchSize: 10 });
    expect(settings?.traces?.timeoutMs).toBe(2000);
    expect(settings?.metrics?.otlp?.intervalMs).toBe(5000);
    const defaults = parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" });
    expect(defaults?.traces?.batch).toEqual({ scheduledDelayMillis: 5000, exportTimeoutMillis: 30000, maxQueueSize: 2048, maxExportBatchSize: 512 });
    expect(() => parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_BSP_SCHEDULE_DELAY: "soon" })).toThrow(expect.objectContaining({ code: "CONFIG_TELEMETRY_INVALID" }));
    expect(() => parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_BSP_MAX_QUEUE_SIZE: "5", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "10" })).toThrow(
      expect.objectContaining({ code: "CONFIG_TELEMETRY_INVALID" }),
    );
  });

  it("turns on /metrics with OTEL_METRICS_EXPORTER=prometheus alone, and refuses unknown exporters and bad URLs", () => {
    expect(parseTelemetrySettings({ OTEL_METRICS_EXPORTER: "prometheus" })).toMatchObject({ traces: undefined, metrics: { otlp: undefined, prometheus: true } });
    expect(parseTelemetrySettings({ OTEL_METRICS_EXPORTER: "otlp,prometheus", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })?.metrics?.otlp).toBeDefined();
    expect(() => parseTelemetrySettings({ OTEL_METRICS_EXPORTER: "zipkin" })).toThrow(expect.objectContaining({ code: "CONFIG_TELEMETRY_INVALID" }));
    expect(() => parseTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(expect.objectContaining({ code: "CONFIG_TELEMETRY_INVALID" }));
  });

  it("names the service from OTEL_SERVICE_NAME, else OTEL_RESOURCE_ATTRIBUTES, else mcpvm", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    expect(parseTelemetrySettings(endpoint)?.serviceName).toBe("mcpvm");
    expect(parseTelemetrySettings({ ...endpoint, OTEL_RESOURCE_ATTRIBUTES: "service.name=gw,deployment.environment=prod" })).toMatchObject({ serviceName: "gw", resourceAttributes: { "deployment.environment": "prod" } });
    expect(parseTelemetrySettings({ ...endpoint, OTEL_SERVICE_NAME: "named", OTEL_RESOURCE_ATTRIBUTES: "service.name=gw" })?.serviceName).toBe("named");
  });
});

describe("off and free when not asked for", () => {
  it("startTelemetry without OTEL_* variables returns the no-op and installs nothing", async () => {
    const started = await startTelemetry({ PATH: "/usr/bin" });
    expect(started).toBe(NOOP_TELEMETRY);
    expect(telemetry()).toBe(NOOP_TELEMETRY);
    expect(started.tracingFetch()).toBeUndefined();
    expect(started.metricsHandler).toBeUndefined();
    const modules = { "host:x": { f: () => 1 } };
    expect(started.bindHostModules(modules)).toBe(modules);
  });

  it("no file outside src/telemetry/otel imports an @opentelemetry package, and src/telemetry/otel is reached only by dynamic import", () => {
    const src = resolve(import.meta.dirname, "../../src");
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
    const offenders: string[] = [];
    let dynamicImports = 0;
    for (const file of files(src)) {
      const path = relative(src, file);
      const text = readFileSync(file, "utf8");
      const inOtel = path.startsWith("telemetry/otel/");
      if (!inOtel && /from\s+["']@opentelemetry\//.test(text)) offenders.push(`${path}: static @opentelemetry import`);
      if (!inOtel && /from\s+["'][./]*otel\//.test(text)) offenders.push(`${path}: static import of telemetry/otel`);
      if (/import\(\s*["'][./]*otel\//.test(text)) dynamicImports += 1;
    }
    expect(offenders).toEqual([]);
    expect(dynamicImports).toBeGreaterThan(0);
  });
});
