import { context, propagation, trace } from "@opentelemetry/api";
import type { Resource } from "@opentelemetry/resources";
import type { TelemetrySettings } from "../settings.js";
import { createSpanExporter } from "./exporters.js";

export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * A Node tracer provider with a batch span processor over the OTLP exporter, registered as the
 * API's global: that installs the AsyncLocalStorage context manager (so a span started in a
 * request is the parent of everything awaited inside it) and the W3C trace-context propagator.
 */
export async function createTracing(target: NonNullable<TelemetrySettings["traces"]>, resource: Resource): Promise<Tracing> {
  const { NodeTracerProvider, BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-node");
  const processor = new BatchSpanProcessor(await createSpanExporter(target), { ...target.batch });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  return {
    shutdown: async () => {
      // Flushes the batch (bounded by OTEL_BSP_EXPORT_TIMEOUT), then leaves the globals as they were.
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
