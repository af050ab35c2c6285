import type { McpvmError } from "../../util/errors.js";
import { z } from "zod";
import type { Implementation, OAuthClientProvider, Tool } from "@modelcontextprotocol/client";
import type { McpServerLaunch } from "../types.js";
import type { ChildEnvBuilder } from "./child-env.js";
import type { SpawnFunction } from "./stdio-transport.js";
import type { ResultLogger } from "../results/index.js";
import type { ServerRequestHooks } from "./server-requests.js";

/** Numeric policy of a ClientManager; zod gives the defaults and the validation in one place. */
export const clientManagerLimitsSchema = z.object({
  /** Connections alive at once (connecting or connected). */
  maxLiveConnections: z.number().int().min(1).default(5),
  /** A connected server with no call for this long is closed (0 disables). */
  idleTimeoutMs: z.number().int().min(0).default(5 * 60_000),
  /** Reconnects after a failure (died, failed to connect) allowed per server in this session. */
  maxReconnects: z.number().int().min(0).default(3),
  /**
   * Upper bound of every call timeout; a launch's callTimeoutMs and the caller's deadline can only lower it.
   * The default is config.json's own maximum (one hour), so a server's callTimeoutMs above 30 s is honoured:
   * the 30 s default of a call already comes from the launch (DEFAULT_SERVER_LIMITS).
   */
  defaultCallTimeoutMs: z.number().int().min(1).default(3_600_000),
  /** tools/list pages followed before giving up on a server whose nextCursor never ends. */
  maxToolPages: z.number().int().min(1).default(64),
  /** stderr lines kept per server for diagnostics. */
  stderrLines: z.number().int().min(1).default(200),
  /** Between SIGTERM and SIGKILL when closing a stdio server. */
  killGraceMs: z.number().int().min(0).default(1_000),
  /** Log messages, resource updates and progress notifications passed per second per server (per call for progress); the rest are dropped and counted. */
  maxNotificationsPerSecond: z.number().int().min(1).default(50),
});

export type ClientManagerLimits = z.infer<typeof clientManagerLimitsSchema>;
export type ClientManagerLimitsInput = z.input<typeof clientManagerLimitsSchema>;

/** Called on every connect (reconnects included); substitution of ${VAR} happens inside it. */
export type LaunchResolver = () => Promise<McpServerLaunch>;

export interface ServerIdentity {
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
}

/**
 * Seams for the trust layer. The defaults let everything through, but they are called on the same
 * code path, so a real hook changes behaviour without changing the manager.
 */
export interface ClientManagerHooks {
  /** Runs before any process is spawned or URL contacted, on every connect; throwing refuses it. */
  readonly beforeConnect?: (launch: McpServerLaunch) => Promise<void>;
  /** What it returns is the tool list the manager exposes and accepts calls for. */
  readonly onToolsListed?: (name: string, tools: readonly Tool[], identity: ServerIdentity) => Promise<readonly Tool[]>;
  /** Applied to every error message and stderr line the manager surfaces (after launch.secrets masking). */
  readonly redact?: (text: string) => string;
}

/**
 * OAuth for one http/sse server (src/mcp/oauth gives it): the SDK's provider plus the browser step
 * the connection runs when the SDK gave up on a request because a login is needed.
 */
export interface LoginDriver {
  readonly provider: OAuthClientProvider;
  /** Loads stored tokens; starts the redirect listener when a browser may be used. */
  prepare(): Promise<void>;
  /** A connect or a call begins: a fresh budget of browser logins (no loops). */
  beginOperation(): void;
  /** Opens the browser and waits for the redirect when the SDK asked for a login; undefined otherwise. */
  completeLogin(): Promise<URLSearchParams | undefined>;
  /** The tokens in use, when there are: a server→client stream ends when its access token expires (stream-expiry.ts). */
  currentTokens(): { readonly access_token: string; readonly expiresAt?: number } | undefined;
  /** The transport's fetch, wrapped so that token refreshes go one at a time across processes. */
  wrapFetch(inner: (input: string | URL, init?: RequestInit) => Promise<Response>): (input: string | URL, init?: RequestInit) => Promise<Response>;
  /** An OAuth failure in this grant's words (a grant without a person must not say "run `mcpvm mcp login`"). */
  explainFailure?(failure: McpvmError): McpvmError;
}

export interface ClientManagerOptions {
  readonly servers: Readonly<Record<string, LaunchResolver>>;
  readonly limits?: ClientManagerLimitsInput;
  readonly hooks?: ClientManagerHooks;
  /** Environment of a stdio child; defaults to a minimal allowlist of the host's plus launch.env. */
  readonly childEnv?: ChildEnvBuilder;
  readonly spawn?: SpawnFunction;
  /** Epoch milliseconds; call deadlines are on this clock. */
  readonly now?: () => number;
  /** Receives the truncation warnings of result conversion. */
  readonly logger?: ResultLogger;
  readonly clientInfo?: Implementation;
  /** config.json, named in messages that say which setting to change (connectTimeoutMs). */
  readonly configFile?: string;
  /**
   * Answers to server→client requests (elicitation/create, sampling/createMessage, roots/list).
   * Each capability is declared to servers only when its hook is installed.
   */
  readonly serverRequests?: ServerRequestHooks;
  /**
   * Protocol generation of upstream connections: "legacy" (default) runs the 2025 initialize
   * handshake; "auto" probes with server/discover and speaks 2026-07-28 to a server that offers it.
   */
  readonly protocol?: "legacy" | "auto";
  /** The OAuth driver of an http/sse server, or undefined (stdio, or a server with its own Authorization header). */
  readonly login?: (launch: McpServerLaunch) => LoginDriver | undefined;
}
