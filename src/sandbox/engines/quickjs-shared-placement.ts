import { PoolError } from "./quickjs-pool.js";
import type { SharedWorkerAssets } from "./quickjs-shared-assets.js";
import { SharedQuickJsThread, type SharedThreadOptions } from "./quickjs-shared-thread.js";
import { DEFAULT_SLICE_MS } from "./quickjs-yield.js";

export interface PlacementDemand {
  /** Most worker threads at once (their runs share them). */
  readonly maxThreads: number;
  /** Threads kept started while idle (each holds one instance with a sandbox ready). */
  readonly warmThreads: number;
  /** How long an idle thread beyond the warm set lives. */
  readonly idleMs: number;
  /** How long every thread must have computed without a pause before another starts for a waiting run (0: at once). */
  readonly spawnAfterMs: number;
}

interface Waiter {
  /** Tries to place the run now; true once placed (or failed), and the waiter is then dropped. */
  readonly attempt: () => boolean;
}

/**
 * Where a new run of the worker engine goes: a thread where no run is computing (every run on it
 * waits in a host call, or none is there); else the thread with the fewest computing runs, whose
 * guests take turns by time slices, and if every thread has computed for `spawnAfterMs` without a
 * pause, a new thread starts (up to `maxThreads`) for the runs after it. A run waits, in order, only
 * while no thread has room (or none has started). Placement is synchronous with the choice (`place`),
 * so two runs never both take the last quiet thread. Threads are shared by every engine of the
 * process with the same options; a thread that exits is dropped, failing only the runs it held.
 */
export class SharedThreadPlacement {
  private readonly threads: SharedQuickJsThread[] = [];
  private readonly waiters: Waiter[] = [];
  private starting = 0;
  private readonly idleSince = new Map<SharedQuickJsThread, number>();
  private trimTimer: NodeJS.Timeout | undefined;
  demand: PlacementDemand;

  constructor(
    private readonly assets: SharedWorkerAssets,
    readonly options: SharedThreadOptions,
    demand: PlacementDemand,
  ) {
    this.demand = demand;
  }

  /** Threads alive and starting (for tests and diagnostics). */
  get counts(): { readonly threads: number; readonly starting: number; readonly runs: number } {
    return { threads: this.threads.length, starting: this.starting, runs: this.threads.reduce((sum, thread) => sum + thread.runs, 0) };
  }

  /** The live threads (for tests: one can be killed to check crash isolation). */
  list(): readonly SharedQuickJsThread[] {
    return [...this.threads];
  }

  /** At least `count` threads started (the engine's warm thread). */
  async warm(count = 1): Promise<void> {
    while (this.threads.length + this.starting < count) await this.spawn();
  }

  /**
   * Calls `start` with the thread chosen for a run, synchronously with the choice. Rejects with
   * PoolError ACQUIRE_ABORTED if `signal` aborts while the run waits, or with the thread's start
   * failure.
   */
  place(start: (thread: SharedQuickJsThread) => void, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(new PoolError("ACQUIRE_ABORTED", "The run was cancelled while waiting for a free sandbox"));
    const chosen = this.quietThread() ?? this.leastBusyThread();
    if (chosen !== undefined) {
      if (chosen.computing > 0) this.spreadIfComputeBound();
      this.take(chosen, start);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      let done = false;
      const onAbort = (): void => {
        if (done) return;
        done = true;
        const index = this.waiters.indexOf(waiter);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(new PoolError("ACQUIRE_ABORTED", "The run was cancelled while waiting for a free sandbox"));
      };
      const waiter: Waiter = {
        attempt: () => {
          if (done) return true;
          const thread = this.quietThread() ?? this.leastBusyThread();
          if (thread === undefined) return false;
          done = true;
          signal?.removeEventListener("abort", onAbort);
          try {
            this.take(thread, start);
            resolve();
          } catch (error) {
            reject(error);
          }
          return true;
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      const startThread = (): void => {
        if (done || this.threads.length + this.starting >= this.demand.maxThreads) return;
        this.spawn().catch((error: unknown) => {
          // A thread that cannot start fails the run that asked for it, if it still waits.
          const index = this.waiters.indexOf(waiter);
          if (index === -1 || done) return;
          this.waiters.splice(index, 1);
          done = true;
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        });
      };
      // A computing run usually reaches its next host call or its end within a millisecond, and a new
      // thread takes tens of ms to start and ~10 MB to keep: one starts only once every thread has
      // been computing without a pause for spawnAfterMs (runs placed one after another, each soon
      // waiting in its host call, never start one).
      const check = (): void => {
        if (done) return;
        const busyFor = Math.min(...this.threads.filter((thread) => thread.alive).map((thread) => thread.busyForMs()));
        if (!Number.isFinite(busyFor) || busyFor >= this.demand.spawnAfterMs) startThread();
        else setTimeout(check, this.demand.spawnAfterMs - busyFor).unref();
      };
      if (this.threads.length === 0 || this.demand.spawnAfterMs <= 0) startThread();
      else setTimeout(check, this.demand.spawnAfterMs).unref();
    });
  }

  /** Ends every thread (tests; runs on them are lost). */
  async dispose(): Promise<void> {
    clearTimeout(this.trimTimer);
    await Promise.all(this.threads.map((thread) => thread.terminate("the QuickJS engine was disposed")));
  }

  private quietThread(): SharedQuickJsThread | undefined {
    // The first quiet thread, so runs pack onto few threads (memory) while those threads have room.
    return this.threads.find((thread) => thread.alive && thread.hasRoom && thread.computing === 0);
  }

  /**
   * With no quiet thread, the one with the fewest computing runs: its guests yield between time slices
   * (quickjs-yield.ts), so a run placed there starts within about a slice per guest computing ahead of
   * it, where waiting for a quiet or a new thread took a whole computation or a thread's start.
   */
  private leastBusyThread(): SharedQuickJsThread | undefined {
    let best: SharedQuickJsThread | undefined;
    const now = performance.now();
    for (const thread of this.threads) {
      // A guest stuck in one native call yields nothing: a run placed there would wait for it, and die with the thread if it is killed.
      if (!thread.alive || !thread.hasRoom || !thread.responsive(STALL_MS, now)) continue;
      if (best === undefined || thread.computing < best.computing) best = thread;
    }
    return best;
  }

  /**
   * A run is being placed beside a computing guest: if every thread has had guests computing whole
   * time slices for spawnAfterMs without a pause (CPU-bound, not runs starting up), another thread
   * starts (up to maxThreads), so the runs that come next find it quiet. Runs already placed stay
   * where they are (a guest's stack lives in its thread's wasm instance), so a thread starts only for
   * a run that arrives while the others compute, never for a burst that has all been placed: ten
   * runs arriving at once, each building its instance and data, kept their thread computing past
   * 20 ms, and a timer armed at their placement started a second thread that no run ever used
   * (~10 MB while it lived, about 1 MB of each live sandbox's 1.9 MB in bench/RESULTS.md).
   */
  private spreadIfComputeBound(): void {
    if (this.starting > 0 || this.threads.length >= this.demand.maxThreads) return;
    const alive = this.threads.filter((thread) => thread.alive);
    // Slices for at least half the window: guests computed it, rather than runs starting up.
    const slicesDue = Math.max(1, Math.floor(this.demand.spawnAfterMs / DEFAULT_SLICE_MS / 2));
    const now = performance.now();
    const cpuBound = alive.every((thread) => thread.computing > 0 && thread.busyForMs(now) >= this.demand.spawnAfterMs && thread.slicesWhileBusy >= slicesDue);
    if (cpuBound) this.spawn().catch(() => undefined);
  }

  private take(thread: SharedQuickJsThread, start: (thread: SharedQuickJsThread) => void): void {
    this.idleSince.delete(thread);
    start(thread);
  }

  private async spawn(): Promise<void> {
    this.starting++;
    let thread: SharedQuickJsThread;
    try {
      thread = await SharedQuickJsThread.spawn(this.assets, this.options);
    } finally {
      this.starting--;
    }
    this.threads.push(thread);
    thread.onChange = () => this.changed(thread);
    this.changed(thread);
  }

  /** A run ended or began waiting, or a thread exited: place waiting runs, note idle threads. */
  private changed(thread: SharedQuickJsThread): void {
    if (!thread.alive) {
      const index = this.threads.indexOf(thread);
      if (index !== -1) this.threads.splice(index, 1);
      this.idleSince.delete(thread);
    }
    while (this.waiters.length > 0 && this.waiters[0]?.attempt() === true) this.waiters.shift();
    // A thread exited while runs wait: start one in its place (their own checks only start threads for a busy one).
    if (!thread.alive && this.waiters.length > this.starting && this.threads.length + this.starting < this.demand.maxThreads) {
      this.spawn().catch(() => undefined);
    }
    if (thread.alive && thread.runs === 0) {
      this.idleSince.set(thread, Date.now());
      this.scheduleTrim();
    }
  }

  private scheduleTrim(): void {
    if (this.trimTimer !== undefined) return;
    this.trimTimer = setTimeout(() => {
      this.trimTimer = undefined;
      this.trim();
    }, this.demand.idleMs);
    this.trimTimer.unref();
  }

  /** Ends threads idle for `idleMs` beyond the warm set (idle threads never keep the process alive). */
  private trim(): void {
    const now = Date.now();
    for (const thread of [...this.threads]) {
      if (this.threads.length <= this.demand.warmThreads) break;
      const since = this.idleSince.get(thread);
      if (thread.runs > 0 || since === undefined || now - since < this.demand.idleMs) continue;
      this.idleSince.delete(thread);
      this.threads.splice(this.threads.indexOf(thread), 1);
      void thread.terminate("the QuickJS worker was idle");
    }
    if (this.idleSince.size > 0 && this.threads.length > this.demand.warmThreads) this.scheduleTrim();
  }
}

/**
 * A computing thread that showed no sign of life (an interrupt check, a run starting) for this long
 * is given no more runs: the engines' default kill grace, long enough that a thread the machine's
 * load kept off a core for a while is not taken for a stuck one.
 */
const STALL_MS = 250;

const placements = new Map<string, SharedThreadPlacement>();

/** The process-wide placement for threads with these options; the largest demand of its engines wins. */
export function sharedPlacement(assets: SharedWorkerAssets, options: SharedThreadOptions, demand: PlacementDemand): SharedThreadPlacement {
  const key = JSON.stringify(options);
  let placement = placements.get(key);
  if (placement === undefined) {
    placement = new SharedThreadPlacement(assets, options, demand);
    placements.set(key, placement);
    return placement;
  }
  placement.demand = {
    maxThreads: Math.max(placement.demand.maxThreads, demand.maxThreads),
    warmThreads: Math.max(placement.demand.warmThreads, demand.warmThreads),
    idleMs: Math.max(placement.demand.idleMs, demand.idleMs),
    spawnAfterMs: Math.min(placement.demand.spawnAfterMs, demand.spawnAfterMs),
  };
  return placement;
}

/** The placements made so far (tests and diagnostics). */
export function sharedPlacements(): readonly SharedThreadPlacement[] {
  return [...placements.values()];
}

/** Every shared placement's threads ended (tests and process shutdown). */
export async function disposeSharedPlacements(): Promise<void> {
  const all = [...placements.values()];
  placements.clear();
  await Promise.all(all.map((placement) => placement.dispose()));
}
