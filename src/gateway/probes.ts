import type { ToolDirectory } from "./directory.js";

export interface Readiness {
  readonly ready: boolean;
  /** Approved, enabled servers that could not be reached (connect or listing failed) or no longer match their approval. */
  readonly failing: ReadonlyArray<{ readonly server: string; readonly message: string }>;
  readonly checkedAt: number;
}

/**
 * `/readyz`: the config loaded (the gateway exists only then) and every approved, enabled server
 * answers its listing. Servers waiting for approval or disabled are the person's choice, not a
 * fault, so they do not make a replica unready; a server that was approved but no longer matches
 * its approval (its definition, or the program it runs: a rebuilt image, an upgraded package) is a
 * fault, so a rollout with stale approvals stops at its first pod instead of serving nothing. One check at a time, reused for `ttlMs`, so an
 * orchestrator probing every second does not start a listing per probe.
 */
export class ReadinessProbe {
  private last: Readiness | undefined;
  private running: Promise<Readiness> | undefined;

  constructor(
    private readonly directory: ToolDirectory,
    private readonly options: { readonly ttlMs: number; readonly timeoutMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  async check(): Promise<Readiness> {
    if (this.last !== undefined && this.now() - this.last.checkedAt < this.options.ttlMs) return this.last;
    this.running ??= (async () => {
      try {
        const signal = AbortSignal.timeout(this.options.timeoutMs);
        const { unavailable } = await this.directory.catalogs({ signal, deadline: this.now() + this.options.timeoutMs });
        const failing = unavailable.filter((u) => u.reason === "failed" || u.reason === "changed").map((u) => ({ server: u.server, message: u.message }));
        this.last = { ready: failing.length === 0, failing, checkedAt: this.now() };
        return this.last;
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
