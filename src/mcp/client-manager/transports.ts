import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { closeOnUnansweredStream } from "./http-stream-end.js";
import { endStreamsAtTokenExpiry } from "./stream-expiry.js";
import { telemetry } from "../../telemetry/telemetry.js";
import type { McpServerLaunch } from "../types.js";
import type { ChildEnvBuilder } from "./child-env.js";
import type { LoginDriver } from "./options.js";
import { ProcessGroupStdioTransport, type ExitInfo, type SpawnFunction } from "./stdio-transport.js";
import { defaultServerCwd } from "../../util/user-home.js";

export interface OpenedTransport {
  readonly transport: Transport;
  /** The process id of a stdio server once started. */
  pid(): number | undefined;
  /** How a stdio server's process ended, when it has. */
  exit(): ExitInfo | undefined;
  /** Stop at once (SIGKILL the process group); for HTTP/SSE, close the connection. */
  kill(): Promise<void>;
  /** performance.now() when a stdio process was spawned. */
  startedAt(): number | undefined;
  /** Exchanges a login redirect's code for tokens (http/sse with an OAuth provider). */
  finishAuth?(params: URLSearchParams): Promise<void>;
}

export interface TransportDeps {
  readonly childEnv: ChildEnvBuilder;
  readonly spawn: SpawnFunction | undefined;
  readonly killGraceMs: number;
  readonly onStderr: (chunk: string) => void;
  readonly onStderrEnd: () => void;
  readonly onStdoutGarbage: (line: string) => void;
  /** A stdio process was spawned (pid, milliseconds the spawn took). */
  readonly onSpawned?: (pid: number | undefined, ms: number) => void;
}

/** Builds (does not start) the transport a launch describes. */
export function openTransport(launch: McpServerLaunch, deps: TransportDeps, login?: LoginDriver): OpenedTransport {
  const authProvider = login?.provider;
  if (launch.transport === "stdio") {
    const transport = new ProcessGroupStdioTransport({
      command: launch.command,
      args: launch.args,
      env: deps.childEnv(launch),
      // The service always gives a cwd (the server's, else the config home). A launch without one
      // still never inherits mcpvm's: the caller's folder (an MCP client's open project) may hold a
      // node_modules/.bin that npx would run instead of the approved package.
      cwd: launch.cwd ?? defaultServerCwd(),
      ...(deps.spawn === undefined ? {} : { spawn: deps.spawn }),
      killGraceMs: deps.killGraceMs,
      onStderr: deps.onStderr,
      onStderrEnd: deps.onStderrEnd,
      onStdoutGarbage: deps.onStdoutGarbage,
    });
    let startedAt: number | undefined;
    const start = transport.start.bind(transport);
    transport.start = async () => {
      const before = performance.now();
      await start();
      startedAt = performance.now();
      deps.onSpawned?.(transport.pid, Math.round(startedAt - before));
    };
    return { transport, pid: () => transport.pid, exit: () => transport.exit, kill: () => transport.kill(), startedAt: () => startedAt };
  }
  const url = new URL(launch.url);
  // Redirects stay on the configured origin (the SDK's default), so headers never travel elsewhere.
  const requestInit: RequestInit = { headers: { ...launch.headers } };
  // The SDK drives the OAuth flow (401 discovery, refresh, 403 step-up with its retry limit of 1 per request).
  const auth = authProvider === undefined ? {} : { authProvider };
  // With tracing on, every request carries the current traceparent (the upstream call's span).
  const traced = telemetry().tracingFetch();
  const expiryOf = (token: string) => {
    const tokens = login?.currentTokens();
    return tokens?.access_token === token ? tokens.expiresAt : undefined;
  };
  const authorized = login === undefined ? traced : login.wrapFetch(traced ?? globalThis.fetch);
  // Streamable HTTP only: a legacy SSE server's session lives and dies with its one stream.
  const fetch = login === undefined || launch.transport !== "http" ? authorized : endStreamsAtTokenExpiry(authorized ?? globalThis.fetch, expiryOf);
  const options = { requestInit, ...auth, ...(fetch === undefined ? {} : { fetch }) };
  const transport = launch.transport === "http" ? new StreamableHTTPClientTransport(url, options) : new SSEClientTransport(url, options);
  if (transport instanceof StreamableHTTPClientTransport) closeOnUnansweredStream(transport);
  return {
    transport,
    pid: () => undefined,
    exit: () => undefined,
    kill: () => transport.close(),
    startedAt: () => undefined,
    ...(authProvider === undefined ? {} : { finishAuth: (params: URLSearchParams) => transport.finishAuth(params) }),
  };
}
