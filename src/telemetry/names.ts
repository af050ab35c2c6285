/**
 * Span, attribute and metric names (docs/GATEWAY.md "Traces and metrics" lists them). Where the
 * OpenTelemetry semantic conventions name a thing (HTTP, MCP, GenAI tool calls, error.type), their
 * name is used; mcpvm's own concepts carry an `mcpvm.` prefix.
 */
export const ATTR = {
  httpMethod: "http.request.method",
  httpRoute: "http.route",
  httpStatus: "http.response.status_code",
  mcpMethod: "mcp.method.name",
  mcpSession: "mcp.session.id",
  rpcId: "jsonrpc.request.id",
  toolName: "gen_ai.tool.name",
  operation: "gen_ai.operation.name",
  errorType: "error.type",
  transport: "network.transport",
  client: "mcpvm.client.name",
  server: "mcpvm.server",
  outcome: "mcpvm.outcome",
  engine: "mcpvm.sandbox.engine",
  filename: "mcpvm.sandbox.filename",
  hostCalls: "mcpvm.sandbox.host_calls",
  state: "mcpvm.upstream.state",
  upstreamTransport: "mcpvm.upstream.transport",
} as const;

export const SPAN = {
  sandboxRun: "mcpvm.sandbox.run",
} as const;

export const METRIC = {
  gatewayCalls: "mcpvm.gateway.calls",
  gatewayErrors: "mcpvm.gateway.errors",
  gatewayDuration: "mcp.server.operation.duration",
  upstreamCalls: "mcpvm.upstream.calls",
  upstreamErrors: "mcpvm.upstream.errors",
  upstreamDuration: "mcp.client.operation.duration",
  upstreamState: "mcpvm.upstream.state",
  sandboxRuns: "mcpvm.sandbox.runs",
  sandboxDuration: "mcpvm.sandbox.run.duration",
} as const;

/** Seconds; finer than the SDK's default buckets (made for milliseconds) at the low end, where tool calls live. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** Every state a client-manager slot can be in, so the gauge reports 0 for states a server left. */
export const UPSTREAM_STATES = ["idle", "connecting", "connected", "error", "closed"] as const;

/**
 * The client as a metric label: an access token's client (`<entry>/<person>`, src/gateway/oauth)
 * counts under its entry, so each person does not make metric series of their own (Prometheus
 * label cardinality); spans and logs keep the full name.
 */
export function clientMetricLabel<T>(value: T): T | string {
  return typeof value === "string" && value.includes("/") ? value.slice(0, value.indexOf("/")) : value;
}
