import type { PushMetricExporter } from "@opentelemetry/sdk-metrics";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { OtlpTarget } from "../settings.js";

/**
 * The OTLP/HTTP exporter for the chosen protocol, from the official packages; only the one in
 * use is imported. URL, headers and timeout are passed explicitly (they were read from the env
 * mcpvm was given, which in tests is not process.env).
 */
function config(target: OtlpTarget) {
  return { url: target.url, headers: { ...target.headers }, timeoutMillis: target.timeoutMs };
}

export async function createSpanExporter(target: OtlpTarget): Promise<SpanExporter> {
  if (target.protocol === "http/json") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    return new OTLPTraceExporter(config(target));
  }
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter(config(target));
}

export async function createMetricExporter(target: OtlpTarget): Promise<PushMetricExporter> {
  if (target.protocol === "http/json") {
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-http");
    return new OTLPMetricExporter(config(target));
  }
  const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-proto");
  return new OTLPMetricExporter(config(target));
}
