import { context, diag, DiagLogLevel, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from "@opentelemetry/api";
import { isMcpvmError } from "../../util/errors.js";
import { bindHostModules } from "../bind-modules.js";
import { ATTR, clientMetricLabel, SPAN } from "../names.js";
import type { TelemetrySettings } from "../settings.js";
import type { AttributeValue, FetchFunction, Outcome, SpanScope, Telemetry } from "../telemetry.js";
import { createMetrics, record, type Metrics } from "./metrics.js";
import { createTracing, type Tracing } from "./tracing.js";

export interface OtelOptions {
  /** Where the SDK's own complaints go (an unreachable collector, a refused export). */
  readonly warn?: (message: string) => void;
}

type Instruments = Parameters<typeof record>[0];

interface Operation {
  readonly name: string;
  readonly kind: SpanKind;
  readonly parent: Context;
  readonly attributes: Record<string, AttributeValue>;
  /** The attributes that also label the metrics (bounded: never session or request ids). */
  readonly labels: readonly string[];
  readonly instruments: Instruments | undefined;
}

function defined(attributes: Readonly<Record<string, AttributeValue>>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/** What a thrown error is called in error.type: its stable code, else its class name. Never its message (it may quote arguments). */
function errorType(error: unknown): string {
  if (isMcpvmError(error)) return error.code;
  return error instanceof Error ? error.name : "Error";
}

function metaCarrier(meta: Readonly<Record<string, unknown>> | undefined): Record<string, string> | undefined {
  if (typeof meta?.traceparent !== "string") return undefined;
  return { traceparent: meta.traceparent, ...(typeof meta.tracestate === "string" ? { tracestate: meta.tracestate } : {}) };
}

export async function createOtelTelemetry(settings: TelemetrySettings, options: OtelOptions = {}): Promise<Telemetry> {
  const { resourceFromAttributes } = await import("@opentelemetry/resources");
  if (options.warn !== undefined) {
    const warn = options.warn;
    diag.setLogger({ error: (m) => warn(`OpenTelemetry: ${m}`), warn: (m) => warn(`OpenTelemetry: ${m}`), info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.WARN);
  }
  const resource = resourceFromAttributes({ ...settings.resourceAttributes, "service.name": settings.serviceName });
  const tracing: Tracing | undefined = settings.traces === undefined ? undefined : await createTracing(settings.traces, resource);
  const metrics: Metrics | undefined = settings.metrics === undefined ? undefined : await createMetrics(settings.metrics, resource);
  const tracer = trace.getTracer("mcpvm");

  async function operation<T>(op: Operation, work: (scope: SpanScope) => Promise<T>): Promise<T> {
    const span = tracer.startSpan(op.name, { kind: op.kind, attributes: defined(op.attributes) }, op.parent);
    const labels: Record<string, AttributeValue> = {};
    const label = (key: string, value: AttributeValue | undefined): AttributeValue | undefined => (key === ATTR.client ? clientMetricLabel(value) : value);
    for (const key of op.labels) labels[key] = label(key, op.attributes[key]) as AttributeValue;
    let outcome: Outcome = "ok";
    let failure: string | undefined;
    /** The work called outcome("error", type) itself. */
    let named = false;
    const scope: SpanScope = {
      set: (attributes) => {
        span.setAttributes(defined(attributes));
        for (const key of op.labels) if (attributes[key] !== undefined) labels[key] = label(key, attributes[key]) as AttributeValue;
      },
      outcome: (next, type) => {
        outcome = next;
        failure = type ?? (next === "ok" ? undefined : next);
        named = next === "error" && type !== undefined;
      },
    };
    const started = performance.now();
    try {
      return await context.with(trace.setSpan(op.parent, span), work, undefined, scope);
    } catch (error) {
      // Work that named its own failure before throwing keeps that name: the gateway answers an
      // unknown tool with a protocol error, but its type (and the `_unknown` label below) is its code.
      if (!named) failure = errorType(error);
      outcome = "error";
      throw error;
    } finally {
      span.setAttribute(ATTR.outcome, outcome);
      if (failure !== undefined) {
        span.setAttribute(ATTR.errorType, failure);
        span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      }
      span.end();
      if (op.instruments !== undefined) {
        // A client can send any tool name; unknown ones share one label so they cannot grow the series without bound.
        if (failure === "GATEWAY_TOOL_UNKNOWN") labels[ATTR.toolName] = "_unknown";
        record(op.instruments, defined({ ...labels, [ATTR.outcome]: outcome, [ATTR.errorType]: failure }), (performance.now() - started) / 1000, outcome !== "ok");
      }
    }
  }

  const tracingFetch: FetchFunction = (url, init) => {
    const headers = new Headers(init?.headers);
    propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
    return fetch(url, { ...init, headers });
  };

  return {
    enabled: true,
    httpRequest: (info, res, work) => {
      const parent = propagation.extract(ROOT_CONTEXT, info.headers);
      const span = tracer.startSpan(`${info.method} ${info.route}`, { kind: SpanKind.SERVER, attributes: { [ATTR.httpMethod]: info.method, [ATTR.httpRoute]: info.route } }, parent);
      res.once("close", () => {
        span.setAttribute(ATTR.httpStatus, res.statusCode);
        if (res.statusCode >= 500 || !res.writableFinished) {
          const type = res.writableFinished ? String(res.statusCode) : "aborted";
          span.setAttribute(ATTR.errorType, type);
          span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        }
        span.end();
      });
      return context.with(trace.setSpan(parent, span), work);
    },
    mcpRequest: (info, work) => {
      const active = context.active();
      const carrier = trace.getSpan(active) === undefined ? metaCarrier(info.meta) : undefined;
      const parent = carrier === undefined ? active : propagation.extract(active, carrier);
      return operation(
        {
          name: info.tool === undefined ? info.method : `${info.method} ${info.tool}`,
          kind: SpanKind.SERVER,
          parent,
          attributes: {
            [ATTR.mcpMethod]: info.method,
            [ATTR.toolName]: info.tool,
            [ATTR.mcpSession]: info.session,
            [ATTR.rpcId]: info.rpcId === undefined ? undefined : String(info.rpcId),
            [ATTR.client]: info.client,
            [ATTR.transport]: info.transport === "http" ? "tcp" : "pipe",
          },
          labels: [ATTR.mcpMethod, ATTR.toolName, ATTR.client],
          instruments: metrics?.gateway,
        },
        work,
      );
    },
    sandboxRun: (info, work) =>
      operation({ name: SPAN.sandboxRun, kind: SpanKind.INTERNAL, parent: context.active(), attributes: { [ATTR.filename]: info.filename }, labels: [ATTR.engine], instruments: metrics?.sandbox }, work),
    upstreamCall: (info, work) =>
      operation(
        {
          name: `tools/call ${info.tool}`,
          kind: SpanKind.CLIENT,
          parent: context.active(),
          attributes: { [ATTR.mcpMethod]: "tools/call", [ATTR.operation]: "execute_tool", [ATTR.toolName]: info.tool, [ATTR.server]: info.server, [ATTR.upstreamTransport]: info.transport },
          labels: [ATTR.server, ATTR.toolName],
          instruments: metrics?.upstream,
        },
        work,
      ),
    bindHostModules: (modules) => {
      if (tracing === undefined) return modules;
      const captured = context.active();
      return bindHostModules(modules, (fn) => context.bind(captured, fn));
    },
    tracingFetch: () => (tracing === undefined ? undefined : tracingFetch),
    observeUpstreams: (source) => metrics?.observeUpstreams(source) ?? (() => undefined),
    metricsHandler: metrics?.metricsHandler,
    shutdown: async () => {
      await Promise.all([tracing?.shutdown(), metrics?.shutdown()]);
      diag.disable();
    },
  };
}
