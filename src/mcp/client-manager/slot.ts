import type { Tool } from "@modelcontextprotocol/client";
import { Redactor } from "../../logging/redact.js";
import type { McpvmError } from "../../util/errors.js";
import type { McpServerLaunch } from "../types.js";
import type { Connection } from "./connection.js";
import type { ClientManagerEvent, ServerState, ServerStatus } from "./events.js";
import type { LaunchResolver } from "./options.js";
import { StderrRing } from "./stderr-ring.js";

/** A connection that lived this long before it died was not part of a crash loop. */
export const CRASH_LOOP_WINDOW_MS = 60_000;

/** Everything the manager knows about one configured server, across its connections. */
export class ServerSlot {
  state: ServerState = "idle";
  launch: McpServerLaunch | undefined;
  connection: Connection | undefined;
  connecting: Promise<Connection> | undefined;
  /** Aborts the connect in progress (closeAll, close). */
  connectAbort: AbortController | undefined;
  tools: readonly Tool[] | undefined;
  failures = 0;
  lastError: McpvmError | undefined;
  inFlight = 0;
  /** Holds taken with hold(): while any is held the server is neither closed for idleness nor evicted. */
  holds = 0;
  lastUsed = 0;
  idleTimer: NodeJS.Timeout | undefined;
  /**
   * Set when the slot is taken out of the manager (its server was removed or changed in config.json):
   * draining, never connected again; settles once its process is closed. Until then the process still
   * counts under the live-connection cap (capacity.ts waits on this).
   */
  retirement: Promise<void> | undefined;
  /** A tools/list refresh after list_changed, so calls can wait for it. */
  relisting: Promise<void> | undefined;
  readonly stderr: StderrRing;
  private secrets = new Redactor();

  constructor(
    readonly name: string,
    public resolver: LaunchResolver,
    stderrLines: number,
    private readonly emit: (event: ClientManagerEvent) => void,
    private readonly redactHook: (text: string) => string,
  ) {
    this.stderr = new StderrRing(stderrLines, (line) => this.emit({ type: "stderr", server: name, line }));
  }

  /** Secrets of the launch are masked by value first, then the trust layer's hook runs. */
  readonly redact = (text: string): string => this.redactHook(this.secrets.redact(text));

  useLaunch(launch: McpServerLaunch): void {
    this.launch = launch;
    this.secrets.add(launch.secrets);
  }

  setState(state: ServerState, error?: McpvmError): void {
    const previous = this.state;
    this.state = state;
    if (error !== undefined) this.lastError = error;
    if (previous !== state) this.emit({ type: "state", server: this.name, state, previous, ...(error === undefined ? {} : { error }) });
  }

  clearIdleTimer(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** When the current connection was made (the manager's clock), so a death can tell a crash loop from a crash after long service. */
  connectedAt = 0;

  /**
   * A connection that failed for good: dropped (if still this slot's), counted, closed. maxReconnects
   * bounds a crash loop, not the crashes of a long-lived process (a gateway up for weeks) spread over
   * time: a connection that served for CRASH_LOOP_WINDOW_MS or more starts the count again.
   */
  markDead(connection: Connection, now: number): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.clearIdleTimer();
    this.failures = now - this.connectedAt >= CRASH_LOOP_WINDOW_MS ? 1 : this.failures + 1;
    this.setState("error", connection.deathError());
    void connection.close();
  }

  /** (Re)arms the idle timer; a timer that fires during a call does nothing and is re-armed after it. */
  scheduleIdle(idleTimeoutMs: number): void {
    if (idleTimeoutMs === 0 || this.inFlight > 0 || this.holds > 0 || this.connection === undefined) return;
    if (this.idleTimer !== undefined) {
      this.idleTimer.refresh();
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.inFlight === 0 && this.holds === 0 && this.connection !== undefined) void this.shutdown("idle");
    }, idleTimeoutMs);
    // An idle server must not keep the host process alive.
    this.idleTimer.unref();
  }

  /**
   * Keeps the server running while something outside any call depends on it (a gateway client's
   * resource subscription: its updates come only from a running process). Returns the release,
   * after which the idle timeout applies again; releasing twice does nothing.
   */
  hold(idleTimeoutMs: () => number): () => void {
    this.holds += 1;
    this.clearIdleTimer();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0) this.scheduleIdle(idleTimeoutMs());
    };
  }

  /** Ends a connect in progress and the connection, then rests in `next`. */
  async shutdown(next: "idle" | "closed"): Promise<void> {
    this.clearIdleTimer();
    if (this.connecting !== undefined) {
      this.connectAbort?.abort();
      await this.connecting.catch(() => undefined);
    }
    const connection = this.connection;
    this.connection = undefined;
    if (connection !== undefined) await connection.close();
    this.setState(next);
  }

  get retired(): boolean {
    return this.retirement !== undefined;
  }

  get connected(): boolean {
    return this.connection !== undefined;
  }

  /**
   * Holds a place under the connection cap while its connection opens: from the moment the cap let
   * it through until that connect settles. A connect still resolving its launch or waiting for room
   * holds none, so servers waiting for room never wait on each other.
   */
  admitted = false;

  /** Live for the connection cap: connected, or let through and opening. */
  get live(): boolean {
    return this.connection !== undefined || this.admitted;
  }

  status(): ServerStatus {
    const error = this.lastError;
    return {
      name: this.name,
      state: this.state,
      transport: this.launch?.transport,
      pid: this.connection?.pid,
      toolCount: this.tools?.length,
      inFlight: this.inFlight,
      failures: this.failures,
      lastError: error === undefined ? undefined : { name: error.name, code: error.code, message: error.message },
      stderr: this.stderr.snapshot(),
    };
  }
}
