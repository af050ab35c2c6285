import type { ToolDirectory } from "./directory.js";

export interface Readiness {
  readonly ready: boolean;
  /** Approved, enabled servers that could not be reached (connect or listing failed). */
  readonly failing: ReadonlyArray<{ readonly server: string; readonly message: string }>;
  readonly checkedAt: number;
}

/**
 * `/readyz`: the config loaded (the gateway exists only then) and every approved, enabled server
 * answers its listing. Servers waiting for approval or disabled are the person's choice, not a
 * fault, so they do not make a replica unready. One check at a time, reused for `ttlMs`, so an
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
        const failing = unavailable.filter((u) => u.reason === "failed").map((u) => ({ server: u.server, message: u.message }));
        this.last = { ready: failing.length === 0, failing, checkedAt: this.now() };
        return this.last;
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
