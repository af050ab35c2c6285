import { performance } from "node:perf_hooks";

/** How often the clock looks at the time while plugins load. */
const BEAT_MS = 20;
/** A gap between beats longer than this is the thread held (by some code; a busy machine rarely stalls a process this long). */
const STALL_MS = 250;

interface Stall {
  readonly from: number;
  readonly to: number;
  /** The step whose own code held the thread, when known (see `settled`). */
  readonly owner: object | undefined;
  /** The share of the stall in which the process used CPU (0 to 1): code ran, rather than the machine not running it. */
  readonly busy: number;
}

/** The process's CPU time in milliseconds. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Where the time of plugins loading side by side went, so each step's deadline counts its own time.
 * They share one thread: a plugin whose import or createHostFunctions runs synchronously for seconds
 * holds every other step's continuation back, and the other one's deadline timer (which fires before the
 * I/O it waited for is served) gave up on it and named it, while the plugin that held the thread loaded.
 * The clock beats while plugins load; a gap between beats is a stall. A step that settles at the end
 * of a stall, before anything else could run, is the one whose code held the thread: the stall is its
 * own. Every other stall is taken off each step's clock (load-deadline.ts).
 */
export class LoadClock {
  private last = performance.now();
  private lastCpu = cpuMs();
  private readonly stalls: Stall[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.beat(undefined, 0), BEAT_MS);
    this.timer.unref();
  }

  now(): number {
    return performance.now();
  }

  /** Records the gap since the last beat when it is a stall: `owner`'s from `since`, nobody's known before. */
  private beat(owner: object | undefined, since: number): void {
    const now = performance.now();
    const cpu = cpuMs();
    if (now - this.last > STALL_MS) {
      const busy = this.busyShare(now, cpu);
      if (owner !== undefined && since > this.last) this.stalls.push({ from: this.last, to: Math.min(since, now), owner: undefined, busy });
      this.stalls.push({ from: owner === undefined ? this.last : Math.max(this.last, since), to: now, owner, busy });
    }
    this.last = now;
    this.lastCpu = cpu;
  }

  /** The share of the time since the last beat in which the process used CPU (other threads' included, so at most 1). */
  private busyShare(now: number, cpu: number): number {
    return now > this.last ? Math.min(1, Math.max(0, (cpu - this.lastCpu) / (now - this.last))) : 1;
  }

  /** `step`'s work (begun at `since`) just settled: a thread held until now, with no beat, was held by its code. */
  settled(step: object, since: number): void {
    this.beat(step, since);
  }

  /**
   * How long, since `since`, code other than `step`'s held the thread (a hold not recorded yet included). The busy
   * part of holds no step claimed counts up to `unclaimedCap`: it may be `step`'s own code (code that yields instead
   * of settling right after holding the thread), and uncapped, a plugin computing in chunks with a yield between them
   * was never given up on. Their idle part (the process not run at all: a loaded machine) counts whole.
   */
  heldByOthers(step: object, since: number, unclaimedCap = Number.POSITIVE_INFINITY): number {
    const now = performance.now();
    let whole = 0;
    let unclaimed = 0;
    for (const stall of this.stalls) {
      if (stall.owner === step) continue;
      const overlap = Math.max(0, Math.min(stall.to, now) - Math.max(stall.from, since));
      if (stall.owner !== undefined) whole += overlap;
      else {
        unclaimed += overlap * stall.busy;
        whole += overlap * (1 - stall.busy);
      }
    }
    if (now - this.last > STALL_MS) {
      const busy = this.busyShare(now, cpuMs());
      const overlap = now - Math.max(this.last, since);
      unclaimed += overlap * busy;
      whole += overlap * (1 - busy);
    }
    return whole + Math.min(unclaimed, unclaimedCap);
  }

  /** How long `step`'s own code held the thread. */
  heldBy(step: object): number {
    return this.stalls.reduce((sum, stall) => sum + (stall.owner === step ? stall.to - stall.from : 0), 0);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
