import type { Logger } from "pino";
import type { ServerState } from "../mcp/client-manager/index.js";
import { errorMessage } from "../util/errors.js";
import type { GatewaySettings } from "./settings.js";

export interface HealthMonitorDeps {
  readonly servers: () => readonly string[];
  readonly state: (server: string) => ServerState;
  /** Resolves false when the server is not connected; throws when the ping fails. */
  readonly ping: (server: string, timeoutMs: number) => Promise<boolean>;
  readonly close: (server: string) => Promise<void>;
  /** Connects again (approval is checked again on the way). */
  readonly reconnect: (server: string) => Promise<void>;
  /** A server that was in use could not be brought back this round (its direct tools may go). */
  readonly onGaveUp: (server: string) => void;
  readonly logger: Logger;
  readonly settings: Pick<GatewaySettings, "healthIntervalMs" | "healthTimeoutMs" | "reconnectBaseMs" | "reconnectMaxMs">;
  readonly now?: () => number;
}

/** base, 2×base, 4×base, … capped at max. */
export function backoffDelay(failures: number, baseMs: number, maxMs: number): number {
  if (failures <= 0) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 30));
}

interface Recovery {
  failures: number;
  nextAttempt: number;
}

/**
 * Pings connected upstream servers every interval. A server that stops answering is closed; one
 * that was in use and died (or was closed for not answering) is reconnected with exponential
 * backoff. Servers closed for being idle are left alone: they start again on their next use.
 */
export class HealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly recovering = new Map<string, Recovery>();
  /** A failed reconnect's next attempt, when its backoff ends (not at the next interval, which is far longer). */
  private readonly retries = new Map<string, NodeJS.Timeout>();
  /** Servers with a reconnect under way, so a retry and an interval round never try the same one twice at once. */
  private readonly attempting = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly deps: HealthMonitorDeps) {
    this.now = deps.now ?? Date.now;
  }

  start(): void {
    if (this.timer !== undefined || this.deps.settings.healthIntervalMs === 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.check().finally(() => (this.running = undefined));
    }, this.deps.settings.healthIntervalMs);
    // The monitor alone must not keep the process alive.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    for (const retry of this.retries.values()) clearTimeout(retry);
    this.retries.clear();
  }

  /** Servers waiting for a reconnect, with their failure count (for status output and tests). */
  pending(): ReadonlyMap<string, number> {
    return new Map([...this.recovering].map(([name, r]) => [name, r.failures]));
  }

  /** One round: ping the connected, recover the fallen. */
  async check(): Promise<void> {
    await Promise.all(this.deps.servers().map((server) => this.checkOne(server)));
  }

  private async checkOne(server: string): Promise<void> {
    const state = this.deps.state(server);
    if (state === "connected") {
      try {
        await this.deps.ping(server, this.deps.settings.healthTimeoutMs);
        this.recovering.delete(server);
      } catch (error) {
        this.deps.logger.warn({ server }, `health check: ${server} did not answer a ping (${errorMessage(error)}); restarting it`);
        await this.deps.close(server).catch(() => undefined);
        this.recovering.set(server, { failures: 0, nextAttempt: this.now() });
        await this.recover(server);
      }
      return;
    }
    if (state === "error" && !this.recovering.has(server)) this.recovering.set(server, { failures: 0, nextAttempt: this.now() });
    if (this.recovering.has(server) && state !== "connecting") await this.recover(server);
  }

  /** `due`: called by the backoff's own timer, which may fire a millisecond before the clock reads nextAttempt. */
  private async recover(server: string, due = false): Promise<void> {
    const recovery = this.recovering.get(server);
    if (recovery === undefined || (!due && this.now() < recovery.nextAttempt) || this.attempting.has(server)) return;
    this.attempting.add(server);
    try {
      await this.deps.reconnect(server);
      this.recovering.delete(server);
      this.deps.logger.info({ server, attempts: recovery.failures + 1 }, `health check: ${server} reconnected`);
    } catch (error) {
      recovery.failures += 1;
      const delay = backoffDelay(recovery.failures, this.deps.settings.reconnectBaseMs, this.deps.settings.reconnectMaxMs);
      recovery.nextAttempt = this.now() + delay;
      this.deps.logger.warn({ server, failures: recovery.failures, retryInMs: delay }, `health check: ${server} could not reconnect (${errorMessage(error)})`);
      this.deps.onGaveUp(server);
      this.retryAfter(server, delay);
    } finally {
      this.attempting.delete(server);
    }
  }

  /** While the monitor runs, tries again when the backoff ends: an upstream back after a blip gets its tools back then. */
  private retryAfter(server: string, delayMs: number): void {
    if (this.timer === undefined) return;
    clearTimeout(this.retries.get(server));
    const retry = setTimeout(() => {
      this.retries.delete(server);
      // Another connect (a call's) is under way: look again when the backoff ends once more, since it
      // may fail too; dropping the retry left the server down until the next round.
      const state = this.deps.state(server);
      if (state === "connecting") this.retryAfter(server, delayMs);
      else if (state === "connected") this.recovering.delete(server);
      else void this.recover(server, true);
    }, delayMs);
    retry.unref();
    this.retries.set(server, retry);
  }
}
