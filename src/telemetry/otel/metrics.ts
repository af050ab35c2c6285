import type { IncomingMessage, ServerResponse } from "node:http";
import type { Attributes, Counter, Histogram } from "@opentelemetry/api";
import type { Resource } from "@opentelemetry/resources";
import type { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { DURATION_BUCKETS, METRIC, ATTR, UPSTREAM_STATES } from "../names.js";
import type { TelemetrySettings } from "../settings.js";
import type { UpstreamState } from "../telemetry.js";
import { createMetricExporter } from "./exporters.js";

/** Calls, errors and latency of one kind of operation. */
export interface OperationInstruments {
  readonly calls: Counter;
  readonly errors: Counter;
  readonly duration: Histogram;
}

export interface Metrics {
  readonly gateway: OperationInstruments;
  readonly upstream: OperationInstruments;
  readonly sandbox: { readonly runs: Counter; readonly duration: Histogram };
  observeUpstreams(source: () => Iterable<UpstreamState>): () => void;
  readonly metricsHandler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  shutdown(): Promise<void>;
}

/** Records one finished operation: a call, an error when it was not ok, and its duration. */
export function record(instruments: { readonly calls?: Counter; readonly runs?: Counter; readonly errors?: Counter; readonly duration: Histogram }, attributes: Attributes, seconds: number, failed: boolean): void {
  (instruments.calls ?? instruments.runs)?.add(1, attributes);
  if (failed) instruments.errors?.add(1, attributes);
  instruments.duration.record(seconds, attributes);
}

export async function createMetrics(settings: NonNullable<TelemetrySettings["metrics"]>, resource: Resource): Promise<Metrics> {
  const { MeterProvider: Provider, PeriodicExportingMetricReader } = await import("@opentelemetry/sdk-metrics");
  const readers: MetricReader[] = [];
  let metricsHandler: Metrics["metricsHandler"];
  if (settings.otlp !== undefined) {
    readers.push(new PeriodicExportingMetricReader({ exporter: await createMetricExporter(settings.otlp), exportIntervalMillis: settings.otlp.intervalMs, exportTimeoutMillis: Math.min(settings.otlp.timeoutMs, settings.otlp.intervalMs) }));
  }
  if (settings.prometheus) {
    const { PrometheusExporter } = await import("@opentelemetry/exporter-prometheus");
    // Served by the gateway's own listener at /metrics, behind its token: no second port.
    const prometheus = new PrometheusExporter({ preventServerStart: true });
    // The exporter package pins its own sdk-metrics patch release; the reader contract is the same.
    readers.push(prometheus as unknown as MetricReader);
    metricsHandler = (req, res) => prometheus.getMetricsRequestHandler(req, res);
  }
  const provider: MeterProvider = new Provider({ resource, readers });
  const meter = provider.getMeter("mcpvm");
  const histogram = (name: string, description: string) => meter.createHistogram(name, { description, unit: "s", advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
  const gateway: OperationInstruments = {
    calls: meter.createCounter(METRIC.gatewayCalls, { description: "MCP requests the gateway handled" }),
    errors: meter.createCounter(METRIC.gatewayErrors, { description: "MCP requests that ended in an error or a tool error" }),
    duration: histogram(METRIC.gatewayDuration, "Time to answer an MCP request"),
  };
  const upstream: OperationInstruments = {
    calls: meter.createCounter(METRIC.upstreamCalls, { description: "tools/call requests sent to upstream MCP servers" }),
    errors: meter.createCounter(METRIC.upstreamErrors, { description: "Upstream tool calls that failed or returned isError" }),
    duration: histogram(METRIC.upstreamDuration, "Time an upstream tools/call took"),
  };
  const sandbox = {
    runs: meter.createCounter(METRIC.sandboxRuns, { description: "Guest script runs" }),
    duration: histogram(METRIC.sandboxDuration, "Wall time of a guest script run"),
  };
  const sources = new Set<() => Iterable<UpstreamState>>();
  meter.createObservableGauge(METRIC.upstreamState, { description: "1 for the state each upstream server is in, 0 for the others" }).addCallback((result) => {
    for (const source of sources) {
      for (const { server, state } of source()) {
        for (const candidate of UPSTREAM_STATES) result.observe(candidate === state ? 1 : 0, { [ATTR.server]: server, [ATTR.state]: candidate });
      }
    }
  });
  return {
    gateway,
    upstream,
    sandbox,
    observeUpstreams: (source) => {
      sources.add(source);
      return () => sources.delete(source);
    },
    metricsHandler,
    shutdown: () => provider.shutdown(),
  };
}
