import type { Logger } from "pino";
import type { ClientManager, ClientManagerEvent } from "../client-manager/index.js";
import type { McpServerEntry } from "../config/index.js";
import type { ServerStatusStore } from "./server-status.js";

/** Refusals before anything started say nothing about the server itself; `mcp list` shows approval on its own. */
const NOT_A_CONNECT_RESULT = /^(MCP_NOT_APPROVED|MCP_APPROVAL_CHANGED|MCP_LAUNCH_ENV_|STORE_|MCP_SERVER_CLOSED|MCP_MANAGER_CLOSED)/;

/**
 * Records each server's last connect result in server-status.json (failed with the error, or
 * connected with its tool counts) and writes the debug trace of every start: spawn, initialize,
 * tools/list and call timings. Writes run in the background; `flush` waits for them on close.
 */
export class ServerStatusTracker {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: ServerStatusStore | undefined,
    private readonly entryOf: (name: string) => McpServerEntry | undefined,
    private readonly logger: Logger,
  ) {}

  attach(clients: ClientManager): void {
    clients.subscribe((event) => this.onEvent(event));
  }

  connected(name: string, counts: { toolCount: number; heldCount: number }): void {
    const entry = this.entryOf(name);
    if (this.store !== undefined && entry !== undefined) this.track(this.store.recordConnected(name, entry, counts));
  }

  failed(name: string, error: { readonly code: string }): void {
    if (NOT_A_CONNECT_RESULT.test(error.code)) return;
    const entry = this.entryOf(name);
    if (this.store !== undefined && entry !== undefined) this.track(this.store.recordFailed(name, entry, error));
  }

  /** Waits for the records still being written (before the process exits). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private onEvent(event: ClientManagerEvent): void {
    if (event.type === "timing") {
      // One event per tool call: the line is built only when debug logging is on.
      if (!this.logger.isLevelEnabled("debug")) return;
      this.logger.debug({ server: event.server, phase: event.phase, ms: event.ms, ...event.detail }, `MCP ${event.server}: ${event.phase} took ${event.ms} ms`);
    } else if (event.type === "state") {
      this.logger.debug({ server: event.server, state: event.state, previous: event.previous, ...(event.error === undefined ? {} : { code: event.error.code }) }, `MCP ${event.server}: ${event.previous} -> ${event.state}${event.error === undefined ? "" : ` (${event.error.message.split("\n", 1)[0] ?? ""})`}`);
      if (event.state === "error" && event.error !== undefined) this.failed(event.server, event.error);
    }
  }

  private track(write: Promise<void>): void {
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }
}
