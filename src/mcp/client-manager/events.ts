import type { LoggingLevel, Tool } from "@modelcontextprotocol/client";
import type { McpvmError } from "../../util/errors.js";
import type { ResolvedOrigin } from "./call-origin.js";

/**
 * idle: not running, starts on next use (initially, and after an idle close or LRU eviction).
 * connecting -> connected. error: the last connect failed or the server died; the next use
 * reconnects while the reconnect limit allows. closed: close(name) or closeAll().
 */
export type ServerState = "idle" | "connecting" | "connected" | "error" | "closed";

export type ClientManagerEvent =
  | { readonly type: "state"; readonly server: string; readonly state: ServerState; readonly previous: ServerState; readonly error?: McpvmError }
  /** The exposed tool list changed (after onToolsListed): regenerate types and metadata. */
  | { readonly type: "tools"; readonly server: string; readonly tools: readonly Tool[]; readonly reason: "connect" | "list_changed" }
  | { readonly type: "toolsRefreshFailed"; readonly server: string; readonly error: McpvmError }
  /** notifications/resources/list_changed or notifications/prompts/list_changed (tools have the "tools" event). */
  | { readonly type: "listChanged"; readonly server: string; readonly list: "resources" | "prompts" }
  /** notifications/resources/updated for a URI the server was subscribed to. */
  | { readonly type: "resourceUpdated"; readonly server: string; readonly uri: string }
  /** notifications/message: a log message of the server (strings redacted); `origin`: the caller whose call it arrived during. */
  | { readonly type: "log"; readonly server: string; readonly level: LoggingLevel; readonly logger?: string; readonly data: unknown; readonly origin: ResolvedOrigin }
  /** Notifications past the per-second cap were dropped (an upstream flooding its client). */
  | { readonly type: "notificationsDropped"; readonly server: string; readonly kind: "log" | "resourceUpdated" | "progress"; readonly count: number }
  /** One redacted stderr line of a stdio server. */
  | { readonly type: "stderr"; readonly server: string; readonly line: string }
  /** How long a step took (spawn, initialize, tools/list, a tools/call), for the debug log. */
  | { readonly type: "timing"; readonly server: string; readonly phase: "spawn" | "initialize" | "tools/list" | "call" | "request"; readonly ms: number; readonly detail: Readonly<Record<string, unknown>> }
  /** A tools/call that was sent to the server, for the activity log (arguments unmasked: listeners mask before writing). */
  | { readonly type: "call"; readonly server: string; readonly tool: string; readonly args: unknown; readonly ms: number; readonly outcome: "ok" | "isError" | "failed"; readonly errorCode?: string };

export type ClientManagerListener = (event: ClientManagerEvent) => void;

export interface ServerStatus {
  readonly name: string;
  readonly state: ServerState;
  readonly transport: "stdio" | "http" | "sse" | undefined;
  readonly pid: number | undefined;
  /** Tools exposed (after onToolsListed); undefined before the first connect. */
  readonly toolCount: number | undefined;
  readonly inFlight: number;
  /** Failures (failed connects, deaths) in this session; reconnects stop after limits.maxReconnects. */
  readonly failures: number;
  readonly lastError: { readonly name: string; readonly code: string; readonly message: string } | undefined;
  readonly stderr: readonly string[];
}
