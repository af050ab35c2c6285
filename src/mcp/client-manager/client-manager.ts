import type { CallToolResult, LoggingLevel, ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import { telemetry } from "../../telemetry/telemetry.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { toGuestValue, type GuestValue, type ResultLogger } from "../results/index.js";
import type { McpServerLaunch } from "../types.js";
import { callTimeout, deadlineError, waitWithinBudget, type CallerOptions } from "./call-budget.js";
import type { InFlightCall } from "./call-origin.js";
import { runCall, type CallRunnerDeps } from "./call-runner.js";
import { logLevelOption, sendToolCall, type RequestExtras, type ToolCallDeps } from "./tool-call.js";
import { emptyListFor, supportsRequest, type ServerRequestMethod, type ServerRequestParams, type ServerRequestResult } from "./requests.js";
import { unsupportedRequestError } from "./manager-errors.js";
import type { ServerRequestHooks } from "./server-requests.js";
import type { Connection } from "./connection.js";
import { openSlot, type SlotOpenerDeps } from "./slot-opener.js";
import { isConnectionFatal } from "./errors.js";
import { closedError, reconnectLimitError, retiredError, unknownServerError } from "./manager-errors.js";
import type { ClientManagerEvent, ClientManagerListener, ServerStatus } from "./events.js";
import { clientManagerLimitsSchema, type ClientManagerLimits, type ClientManagerOptions, type LaunchResolver, type ServerIdentity } from "./options.js";
import { ServerSlot } from "./slot.js";

export interface ConnectedServer {
  readonly tools: readonly Tool[];
  readonly identity: ServerIdentity;
  /** What the server declared (resources, prompts, completions, logging, ...). */
  readonly capabilities: ServerCapabilities | undefined;
  /** "legacy" (2025 initialize) or "modern" (2026-07-28), and the negotiated revision. */
  readonly protocol: { readonly era: "legacy" | "modern"; readonly version: string | undefined };
}

export type { RequestExtras } from "./tool-call.js";

const stderrLogger: ResultLogger = { warn: (_data, message) => void process.stderr.write(`mcpvm: ${message}\n`) };

/**
 * Owns every MCP connection: lazy start, shared concurrent connects, the live-connection cap (LRU
 * eviction of idle servers; a clear McpServerUnavailable when every live server is busy, rather
 * than waiting), idle close, reconnect limit, timeouts, and shutdown. Nothing starts until a server
 * is first used.
 */
export class ClientManager {
  private readonly slots = new Map<string, ServerSlot>();
  private readonly listeners = new Set<ClientManagerListener>();
  private readonly limits: ClientManagerLimits;
  private readonly now: () => number;
  private readonly inFlight = new Set<InFlightCall>();
  /** Slots taken out by retire() and still draining: closeAll closes them too, so no child outlives the manager. */
  private readonly retiring = new Set<ServerSlot>();
  private serverRequests: ServerRequestHooks | undefined;
  private protocol: "legacy" | "auto";
  private closed = false;
  /** What runCall and a tools/call (tool-call.ts) need of this manager: built once, not per call. */
  private readonly callRunner: CallRunnerDeps;
  private readonly toolCalls: ToolCallDeps;
  private readonly opener: SlotOpenerDeps;

  constructor(private readonly options: ClientManagerOptions) {
    this.limits = clientManagerLimitsSchema.parse(options.limits ?? {});
    this.now = options.now ?? Date.now;
    this.callRunner = {
      now: this.now,
      emit: (event) => this.emit(event),
      markDead: (slot, connection) => slot.markDead(connection, this.now()),
      scheduleIdle: (slot) => slot.scheduleIdle(this.limits.idleTimeoutMs),
      maxNotificationsPerSecond: this.limits.maxNotificationsPerSecond,
      inFlight: this.inFlight,
    };
    this.toolCalls = {
      slot: (name) => this.slot(name),
      ensureConnected: (slot, caller, tool) => this.ensureConnected(slot, caller, tool),
      runner: this.callRunner,
      defaultCallTimeoutMs: this.limits.defaultCallTimeoutMs,
      now: this.now,
      emit: (event) => this.emit(event),
      logLevelOf: (origin) => this.logLevelOf(origin),
    };
    this.opener = {
      options,
      limits: this.limits,
      now: this.now,
      inFlight: this.inFlight,
      emit: (event) => this.emit(event),
      // A retired slot's process lives on while its calls drain: it still takes a place under the cap.
      slots: () => [...this.slots.values(), ...this.retiring],
      isClosed: () => this.closed,
      serverRequests: () => this.serverRequests,
      protocol: () => this.protocol,
    };
    this.serverRequests = options.serverRequests;
    this.protocol = options.protocol ?? "legacy";
    for (const [name, resolver] of Object.entries(options.servers)) this.setServer(name, resolver);
  }

  serverNames(): string[] {
    return [...this.slots.keys()];
  }

  /** The limits of a server's current launch (maxResponseBytes, timeouts); undefined before its first connect. */
  launchLimits(name: string): McpServerLaunch["limits"] | undefined {
    return this.slot(name).launch?.limits;
  }

  status(name: string): ServerStatus {
    return this.slot(name).status();
  }

  /** Observe state changes, tool list changes and stderr lines; returns the unsubscribe function. */
  subscribe(listener: ClientManagerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Installs the answers to server→client requests (elicitation, sampling, roots) for the faces that
   * can give them (the gateway forwards them to its client, the REPL asks the person). Applies from
   * each server's next connect: a session's capabilities are declared when it starts.
   */
  setServerRequestHooks(hooks: ServerRequestHooks | undefined): void {
    this.serverRequests = hooks;
  }

  /** The protocol generation of upstream connections from each server's next connect (see ClientManagerOptions.protocol). */
  setProtocol(protocol: "legacy" | "auto"): void {
    this.protocol = protocol;
  }

  /** Adds a server, or replaces the resolver of a known one (used from its next connect). */
  setServer(name: string, resolver: LaunchResolver): void {
    const existing = this.slots.get(name);
    if (existing !== undefined) {
      existing.resolver = resolver;
      return;
    }
    // A retired slot's events (its close, its stderr) would be taken for those of the server now under its name.
    const emit = (event: ClientManagerEvent): void => {
      if (!slot.retired) this.emit(event);
    };
    const slot = new ServerSlot(name, resolver, this.limits.stderrLines, emit, this.options.hooks?.redact ?? ((text) => text));
    this.slots.set(name, slot);
  }

  /**
   * Takes a server out at once (new calls and connects no longer find it; a name added again gets a
   * fresh slot) and closes its connection once the calls in flight on it have finished, or after
   * `drainMs` at most. Resolves when it is closed.
   */
  async retire(name: string, drainMs: number): Promise<void> {
    const slot = this.slots.get(name);
    if (slot === undefined) return;
    this.slots.delete(name);
    this.retiring.add(slot);
    const closed = drained(slot, drainMs)
      .then(() => slot.shutdown("closed"))
      .finally(() => this.retiring.delete(slot));
    slot.retirement = closed.catch(() => undefined);
    await closed;
  }

  async removeServer(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (slot === undefined) return;
    await slot.shutdown("closed");
    this.slots.delete(name);
  }

  /** A deliberate retry after a backoff (the gateway's health monitor) is no crash loop: the failure count starts again. */
  forgetFailures(name: string): void {
    this.slot(name).failures = 0;
  }

  /** Connects (if not connected) and returns the exposed tools. */
  async connect(name: string, caller: CallerOptions = {}): Promise<ConnectedServer> {
    const slot = this.slot(name);
    const connection = await this.ensureConnected(slot, caller, undefined);
    return {
      tools: slot.tools ?? [],
      identity: connection.identity,
      capabilities: connection.capabilities(),
      protocol: { era: connection.era(), version: connection.protocolVersion() },
    };
  }

  /**
   * Any client→server request besides tools/* (resources, prompts, completion, logging), with the
   * same connect, timeout, deadline, cancellation and error classification as a tool call. A list
   * verb on a server without the capability returns an empty list; any other such request throws
   * McpRequestError MCP_REQUEST_UNSUPPORTED.
   */
  async request<M extends ServerRequestMethod>(
    name: string,
    method: M,
    params: ServerRequestParams<M>,
    caller: CallerOptions = {},
    extras: RequestExtras = {},
  ): Promise<ServerRequestResult<M>> {
    const slot = this.slot(name);
    if (caller.deadline !== undefined && caller.deadline <= this.now()) throw deadlineError(name, method, "before the request was sent");
    const connection = await this.ensureConnected(slot, caller, method);
    if (!supportsRequest(method, connection.capabilities(), connection.era())) {
      const empty = emptyListFor(method);
      if (empty !== undefined) return empty;
      throw unsupportedRequestError(name, method, connection.era());
    }
    const launch = slot.launch as McpServerLaunch;
    const { ms: timeoutMs, source: timeoutSource } = callTimeout(launch.limits.callTimeoutMs, this.limits.defaultCallTimeoutMs, caller.deadline, this.now());
    if (timeoutMs <= 0) throw deadlineError(name, method, "before the request was sent");
    const call: InFlightCall = { server: name, method, origin: caller.origin };
    return runCall(this.callRunner, slot, connection, { call, detail: {}, ...extras }, (onProgress) =>
      connection.request(method, params, {
        timeoutMs,
        timeoutSource,
        ...(caller.signal === undefined ? {} : { signal: caller.signal }),
        ...(onProgress === undefined ? {} : { onProgress }),
        ...logLevelOption(this.logLevelOf(caller.origin)),
      }),
    );
  }

  /** The log level the caller asked for (ServerRequestHooks.logLevelOf), read per request: a client may change it at any time. */
  private logLevelOf(origin: unknown): LoggingLevel | undefined {
    return origin === undefined ? undefined : this.serverRequests?.logLevelOf?.(origin);
  }

  async listTools(name: string, caller: CallerOptions = {}): Promise<readonly Tool[]> {
    return (await this.connect(name, caller)).tools;
  }

  /** A tool call converted to the guest value (see src/mcp/results). */
  async callTool(name: string, tool: string, args: Record<string, unknown>, caller: CallerOptions = {}, extras: RequestExtras = {}): Promise<GuestValue> {
    // The slot as the call starts: a server retired while its call runs (config.json edit) is no longer in the map when it answers.
    const slot = this.slot(name);
    const result = await this.callToolRaw(name, tool, args, caller, extras);
    const launch = slot.launch as McpServerLaunch;
    const logger = this.options.logger ?? stderrLogger;
    return toGuestValue(result, { maxResponseBytes: launch.limits.maxResponseBytes, logger, server: name, tool }).value;
  }

  /**
   * A tool call's CallToolResult as the server sent it; `isError` results throw McpToolError unless
   * `keepErrorResults` (the gateway passes a tool's error result on to its client unchanged).
   */
  callToolRaw(
    name: string,
    tool: string,
    args: Record<string, unknown>,
    caller: CallerOptions = {},
    options: { readonly keepErrorResults?: boolean } & RequestExtras = {},
  ): Promise<CallToolResult> {
    // One client span per upstream call (src/telemetry); free when telemetry is off.
    return telemetry().upstreamCall({ server: name, tool }, (scope) => sendToolCall(this.toolCalls, { name, tool, args, caller, options }, scope));
  }

  /**
   * Pings a server that is connected (never starts one): false when it is not connected. A
   * transport failure marks it dead, as a failed call does; a timeout is thrown for the caller to judge.
   */
  async ping(name: string, timeoutMs: number): Promise<boolean> {
    const slot = this.slot(name);
    const connection = slot.connection;
    if (connection === undefined) return false;
    try {
      await connection.ping(timeoutMs);
      return true;
    } catch (error) {
      if (isMcpvmError(error) && isConnectionFatal(error)) slot.markDead(connection, this.now());
      throw error;
    }
  }

  /** Keeps a server running (no idle close, no eviction) until the returned release runs. */
  hold(name: string): () => void {
    return this.slot(name).hold(() => this.limits.idleTimeoutMs);
  }

  /** Closes one server; its next use starts it again. */
  async close(name: string): Promise<void> {
    await this.slot(name).shutdown("closed");
  }

  /** On exit: every connection closed, every child process gone; the manager accepts no more work. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.slots.values(), ...this.retiring].map((slot) => slot.shutdown("closed")));
  }

  private slot(name: string): ServerSlot {
    const slot = this.slots.get(name);
    if (slot === undefined) throw unknownServerError(name, this.serverNames());
    return slot;
  }

  private emit(event: ClientManagerEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // A broken observer (a UI) must not break connects and calls.
        (this.options.logger ?? stderrLogger).warn({ event: event.type }, `a ClientManager listener threw: ${errorMessage(error)}`);
      }
    }
  }

  private async ensureConnected(slot: ServerSlot, caller: CallerOptions, tool: string | undefined): Promise<Connection> {
    if (this.closed) throw closedError(slot.name, this.closed);
    if (slot.retired) throw retiredError(slot.name);
    if (slot.connection !== undefined) return slot.connection;
    if (slot.connecting === undefined) {
      if (slot.failures > this.limits.maxReconnects) {
        throw reconnectLimitError(slot.name, slot.failures, this.limits.maxReconnects, slot.lastError);
      }
      slot.connecting = openSlot(this.opener, slot).finally(() => {
        slot.connecting = undefined;
        slot.connectAbort = undefined;
      });
    }
    return waitWithinBudget(slot.connecting, caller, this.now(), slot.name, tool);
  }
}

/** Until nothing is in flight or connecting on the slot (polled: calls end in many places), or `drainMs` passed. */
async function drained(slot: ServerSlot, drainMs: number): Promise<void> {
  const deadline = Date.now() + drainMs;
  while ((slot.inFlight > 0 || slot.connecting !== undefined) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}
