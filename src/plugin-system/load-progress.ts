/** How long a step is waited for before the person at the terminal is told which plugin holds things up. */
export const PROGRESS_AFTER_MS = 2_000;
/** How often the steps in flight are looked at; the line comes at most this late. */
const TICK_MS = 250;

interface Waiting {
  readonly plugin: string;
  readonly step: string;
  readonly since: number;
  said: boolean;
}

/**
 * Says which plugins a face is waiting for once a step has taken PROGRESS_AFTER_MS: a stuck plugin
 * otherwise holds up `mcpvm run`, the REPL, `serve` and `doctor` for its whole load deadline with
 * nothing on screen. Each step is named once; the final PLUGIN_LOAD_FAILED errors still come as before.
 */
export class LoadProgress {
  private readonly waiting = new Set<Waiting>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly deadlineMs: number,
  ) {}

  /** For stderr when it is a terminal; undefined otherwise (nothing on a pipe beyond the final errors). */
  static forStderr(deadlineMs: number): LoadProgress | undefined {
    return process.stderr.isTTY === true ? new LoadProgress((line) => process.stderr.write(line), deadlineMs) : undefined;
  }

  begin(plugin: string, step: string): object {
    const entry: Waiting = { plugin, step, since: Date.now(), said: false };
    this.waiting.add(entry);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    }
    return entry;
  }

  end(token: object): void {
    this.waiting.delete(token as Waiting);
    if (this.waiting.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = Date.now();
    const unsaid = [...this.waiting].filter((entry) => !entry.said);
    if (!unsaid.some((entry) => now - entry.since >= PROGRESS_AFTER_MS)) return;
    // The others waited for a while too: one line for them all rather than one per tick.
    const due = unsaid.filter((entry) => now - entry.since >= TICK_MS);
    for (const entry of due) entry.said = true;
    const seconds = this.deadlineMs >= 1000 ? `${Math.round(this.deadlineMs / 100) / 10} s` : `${this.deadlineMs} ms`;
    const names = due.map((entry) => `plugin ${entry.plugin} (${entry.step})`).join(", ");
    const disable = due.length === 1 ? `mcpvm plugin disable ${due[0]?.plugin ?? "<name>"}` : "mcpvm plugin disable <name>";
    this.write(`mcpvm: waiting for ${names} to load; a step is given up on ${seconds} after it began. To stop loading a plugin: ${disable}\n`);
  }
}
