import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { HostModules } from "../sandbox/types.js";

/**
 * What the rest of mcpvm sees of tracing and metrics. The default is NOOP_TELEMETRY, which runs
 * the wrapped work and nothing else; the OpenTelemetry implementation (./otel) is imported only
 * when the environment asks for it (./start.ts), so a process that does not export pays one
 * function call per hook and loads no SDK.
 */

/** How a traced operation ended: `tool_error` is a tool's own isError result, `error` anything thrown or refused. */
export type Outcome = "ok" | "tool_error" | "error";

export type AttributeValue = string | number | boolean | undefined;

export interface SpanScope {
  /** Attributes learnt during the work (the run's engine, the MCP client's name). */
  set(attributes: Readonly<Record<string, AttributeValue>>): void;
  /** The outcome, when it is not "ok"; a throw records "error" with the error's code by itself. */
  outcome(outcome: Outcome, errorType?: string): void;
}

export interface HttpRequestInfo {
  readonly method: string;
  readonly route: string;
  readonly headers: IncomingHttpHeaders;
}

export interface McpRequestInfo {
  /** JSON-RPC method (tools/call, tools/list). */
  readonly method: string;
  readonly tool?: string | undefined;
  readonly session?: string | undefined;
  readonly rpcId?: string | number | undefined;
  /** The MCP client's own name (clientInfo.name), when it sent one. */
  readonly client?: string | undefined;
  readonly transport: "http" | "stdio";
  /** The request's params._meta: `traceparent`/`tracestate` there are the parent when no HTTP span is active (stdio). */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

export interface UpstreamCallInfo {
  readonly server: string;
  readonly tool: string;
  readonly transport?: string | undefined;
}

export interface SandboxRunInfo {
  readonly filename?: string | undefined;
}

export interface UpstreamState {
  readonly server: string;
  readonly state: string;
}

export type FetchFunction = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface Telemetry {
  /** False for NOOP_TELEMETRY: callers may skip building what only telemetry would use. */
  readonly enabled: boolean;
  /** One span per HTTP request to the gateway, parented on the client's `traceparent`; ends when the response closes. */
  httpRequest<T>(info: HttpRequestInfo, res: ServerResponse, work: () => Promise<T>): Promise<T>;
  /** One span per MCP request the gateway handles (both faces), with call/error counts and latency. */
  mcpRequest<T>(info: McpRequestInfo, work: (scope: SpanScope) => Promise<T>): Promise<T>;
  /** One span per guest run (run_mcp_script, `mcpvm run`). */
  sandboxRun<T>(info: SandboxRunInfo, work: (scope: SpanScope) => Promise<T>): Promise<T>;
  /** One span per upstream tools/call, with per server/tool counts and latency. */
  upstreamCall<T>(info: UpstreamCallInfo, work: (scope: SpanScope) => Promise<T>): Promise<T>;
  /**
   * Host modules whose functions run in the trace context current now: guest host calls arrive
   * from the sandbox's worker threads, outside the run's async context.
   */
  bindHostModules(modules: HostModules): HostModules;
  /** A fetch that sends the current `traceparent` to an HTTP upstream; undefined when off (the SDK's own fetch is used). */
  tracingFetch(): FetchFunction | undefined;
  /** The source of the upstream-state gauge; returns the function that removes it. */
  observeUpstreams(source: () => Iterable<UpstreamState>): () => void;
  /** Serves GET /metrics (Prometheus text) when OTEL_METRICS_EXPORTER includes prometheus. */
  readonly metricsHandler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

const NOOP_SCOPE: SpanScope = { set: () => undefined, outcome: () => undefined };

export const NOOP_TELEMETRY: Telemetry = {
  enabled: false,
  httpRequest: (_info, _res, work) => work(),
  mcpRequest: (_info, work) => work(NOOP_SCOPE),
  sandboxRun: (_info, work) => work(NOOP_SCOPE),
  upstreamCall: (_info, work) => work(NOOP_SCOPE),
  bindHostModules: (modules) => modules,
  tracingFetch: () => undefined,
  observeUpstreams: () => () => undefined,
  metricsHandler: undefined,
  shutdown: async () => undefined,
};

let current: Telemetry = NOOP_TELEMETRY;

/**
 * The process's telemetry. One per process, like OpenTelemetry's own global providers: the hooks
 * sit deep in the client manager and the sandbox host, where threading an object through every
 * constructor would touch every face for no gain.
 */
export function telemetry(): Telemetry {
  return current;
}

/** Installs `next` as the process's telemetry; returns a function that restores NOOP if `next` is still current. */
export function installTelemetry(next: Telemetry): () => void {
  current = next;
  return () => {
    if (current === next) current = NOOP_TELEMETRY;
  };
}
