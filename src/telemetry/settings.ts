import { McpvmError } from "../util/errors.js";

/**
 * What the standard OpenTelemetry environment variables ask for, decided without loading any
 * OpenTelemetry package: when this returns `undefined` nothing of the SDK is imported.
 * https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/ and
 * https://opentelemetry.io/docs/specs/otel/protocol/exporter/
 */

export class TelemetryConfigError extends McpvmError<"CONFIG_TELEMETRY_INVALID"> {}

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtlpTarget {
  /** The full URL of the signal's endpoint (…/v1/traces, …/v1/metrics). */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export interface BatchSettings {
  readonly scheduledDelayMillis: number;
  readonly exportTimeoutMillis: number;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
}

export interface TelemetrySettings {
  readonly serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES (service.name from OTEL_SERVICE_NAME wins over one given here). */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly traces: (OtlpTarget & { readonly batch: BatchSettings }) | undefined;
  readonly metrics:
    | {
        readonly otlp: (OtlpTarget & { readonly intervalMs: number }) | undefined;
        /** GET /metrics on the gateway (OTEL_METRICS_EXPORTER=prometheus). */
        readonly prometheus: boolean;
      }
    | undefined;
  /** Header values, to be registered with the redactor: they are usually API keys. */
  readonly secrets: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

const PROTOCOLS: readonly string[] = ["http/protobuf", "http/json"];

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === "" ? undefined : raw;
}

function invalid(name: string, raw: string, expected: string): never {
  throw new TelemetryConfigError("CONFIG_TELEMETRY_INVALID", `${name}=${JSON.stringify(raw)} is not valid: expected ${expected}. Fix or unset it (see docs/GATEWAY.md, "Traces and metrics").`, {
    data: { variable: name },
  });
}

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < min) invalid(name, raw, `an integer ≥ ${min}`);
  return parsed;
}

/** `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER`: a comma list; absent means `otlp`. */
function exporters(env: Env, name: string, known: readonly string[]): Set<string> {
  const raw = value(env, name);
  const list = (raw ?? "otlp").split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
  for (const item of list) if (!known.includes(item)) invalid(name, raw ?? "", `a comma list of ${known.join(", ")}`);
  return new Set(list.includes("none") ? [] : list);
}

/** W3C Baggage-style `key=value,key2=value2`, values percent-decoded (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). */
export function parseKeyValueList(name: string, raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw === undefined) return out;
  for (const part of raw.split(",")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq <= 0) invalid(name, raw, "key=value pairs separated by commas");
    const key = part.slice(0, eq).trim();
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      invalid(name, raw, "percent-encoded values");
    }
  }
  return out;
}

function protocol(env: Env, signal: "TRACES" | "METRICS"): OtlpProtocol {
  const name = value(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`) === undefined ? "OTEL_EXPORTER_OTLP_PROTOCOL" : `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`;
  const raw = value(env, name) ?? "http/protobuf";
  if (!PROTOCOLS.includes(raw)) invalid(name, raw, `http/protobuf or http/json (grpc is not supported; point the endpoint at the collector's OTLP/HTTP port, usually 4318)`);
  return raw as OtlpProtocol;
}

/** The signal's URL: the signal-specific variable as given, else the base endpoint plus /v1/<signal>. */
function endpoint(env: Env, signal: "TRACES" | "METRICS"): string | undefined {
  const specific = value(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`);
  const base = value(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const [name, url] = specific !== undefined ? [`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`, specific] : base !== undefined ? ["OTEL_EXPORTER_OTLP_ENDPOINT", `${base.replace(/\/+$/, "")}/v1/${signal.toLowerCase()}`] : [];
  if (name === undefined || url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return invalid(name, url, "an http:// or https:// URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") invalid(name, url, "an http:// or https:// URL");
  return parsed.href;
}

function target(env: Env, signal: "TRACES" | "METRICS", url: string): OtlpTarget {
  return {
    url,
    protocol: protocol(env, signal),
    headers: { ...parseKeyValueList("OTEL_EXPORTER_OTLP_HEADERS", value(env, "OTEL_EXPORTER_OTLP_HEADERS")), ...parseKeyValueList(`OTEL_EXPORTER_OTLP_${signal}_HEADERS`, value(env, `OTEL_EXPORTER_OTLP_${signal}_HEADERS`)) },
    timeoutMs: integer(env, `OTEL_EXPORTER_OTLP_${signal}_TIMEOUT`, integer(env, "OTEL_EXPORTER_OTLP_TIMEOUT", 10_000, 1), 1),
  };
}

/** Telemetry settings from the environment, or undefined when nothing is asked for (the common case: no SDK is loaded). */
export function parseTelemetrySettings(env: Env): TelemetrySettings | undefined {
  if (value(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return undefined;
  const traceExporters = exporters(env, "OTEL_TRACES_EXPORTER", ["otlp", "none"]);
  const metricExporters = exporters(env, "OTEL_METRICS_EXPORTER", ["otlp", "prometheus", "none"]);
  const traceUrl = traceExporters.has("otlp") ? endpoint(env, "TRACES") : undefined;
  const metricUrl = metricExporters.has("otlp") ? endpoint(env, "METRICS") : undefined;
  const prometheus = metricExporters.has("prometheus");
  if (traceUrl === undefined && metricUrl === undefined && !prometheus) return undefined;

  const traces =
    traceUrl === undefined
      ? undefined
      : {
          ...target(env, "TRACES", traceUrl),
          batch: {
            scheduledDelayMillis: integer(env, "OTEL_BSP_SCHEDULE_DELAY", 5_000),
            exportTimeoutMillis: integer(env, "OTEL_BSP_EXPORT_TIMEOUT", 30_000, 1),
            maxQueueSize: integer(env, "OTEL_BSP_MAX_QUEUE_SIZE", 2_048, 1),
            maxExportBatchSize: integer(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512, 1),
          },
        };
  if (traces !== undefined && traces.batch.maxExportBatchSize > traces.batch.maxQueueSize) {
    invalid("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", String(traces.batch.maxExportBatchSize), `at most OTEL_BSP_MAX_QUEUE_SIZE (${traces.batch.maxQueueSize})`);
  }
  const otlpMetrics = metricUrl === undefined ? undefined : { ...target(env, "METRICS", metricUrl), intervalMs: integer(env, "OTEL_METRIC_EXPORT_INTERVAL", 60_000, 1) };
  const resourceAttributes = parseKeyValueList("OTEL_RESOURCE_ATTRIBUTES", value(env, "OTEL_RESOURCE_ATTRIBUTES"));
  const secrets = [...Object.values(traces?.headers ?? {}), ...Object.values(otlpMetrics?.headers ?? {})].filter((s) => s.length >= 4);
  return {
    serviceName: value(env, "OTEL_SERVICE_NAME") ?? resourceAttributes["service.name"] ?? "mcpvm",
    resourceAttributes,
    traces,
    metrics: otlpMetrics === undefined && !prometheus ? undefined : { otlp: otlpMetrics, prometheus },
    secrets: [...new Set(secrets)],
  };
}
