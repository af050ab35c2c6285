import { McpvmError } from "../../util/errors.js";
import type { QuickJsThread } from "./quickjs-thread.js";

export interface ThreadPoolOptions {
  /** Most threads alive at once (busy + idle + starting); further runs wait. */
  readonly maxThreads: number;
  /** Idle threads kept ready; extra idle threads are ended after `idleMs`. */
  warmThreads: number;
  idleMs: number;
  /**
   * Starts a thread; `signal` aborts when the pool is disposed, ending a thread still starting. A
   * `background` start (a replacement nobody waits for) must not keep the process alive.
   */
  readonly spawn: (signal: AbortSignal, background: boolean) => Promise<QuickJsThread>;
}

export type PoolErrorCode = "POOL_DISPOSED" | "ACQUIRE_ABORTED";

export class PoolError extends McpvmError<PoolErrorCode> {}

interface Waiter {
  readonly resolve: (thread: QuickJsThread) => void;
  readonly reject: (error: unknown) => void;
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * Warm QuickJS worker threads, one run per thread at a time: a guest waiting for the host blocks
 * its whole thread, and separate threads keep runs from freezing each other. `warmThreads` are kept
 * idle (a thread taken by a run is replaced in the background) so a new run rarely waits for a
 * thread to start.
 */
export class ThreadPool {
  private readonly idle: QuickJsThread[] = [];
  private readonly busy = new Set<QuickJsThread>();
  private readonly waiters: Waiter[] = [];
  private starting = 0;
  private readonly disposal = new AbortController();
  private disposed = false;
  private trimTimer: NodeJS.Timeout | undefined;

  private readonly options: ThreadPoolOptions;

  constructor(options: ThreadPoolOptions) {
    this.options = { ...options };
  }

  get size(): number {
    return this.idle.length + this.busy.size + this.starting;
  }

  /** Threads idle, busy and starting now (for diagnostics and tests). */
  get counts(): { readonly idle: number; readonly busy: number; readonly starting: number } {
    return { idle: this.idle.length, busy: this.busy.size, starting: this.starting };
  }

  /** The threads started and not ended (idle and busy). */
  threads(): readonly QuickJsThread[] {
    return [...this.idle, ...this.busy].filter((thread) => thread.alive);
  }

  get warmThreads(): number {
    return this.options.warmThreads;
  }

  /**
   * Changes how many idle threads are kept and how long extra ones live (a shared pool follows the
   * engines that use it). Extra idle threads are ended after the new `idleMs`.
   */
  configure(warmThreads: number, idleMs: number): void {
    this.options.warmThreads = warmThreads;
    this.options.idleMs = idleMs;
    clearTimeout(this.trimTimer);
    this.trimTimer = undefined;
    if (this.idle.length > warmThreads) this.scheduleTrim();
  }

  /**
   * Starts threads until `warmThreads` (at least `atLeast`) are idle; rejects if one cannot start. A
   * thread beyond `warmThreads` serves the next run and is not replaced (a one-shot `mcpvm run`).
   */
  async warm(atLeast = 0): Promise<void> {
    const missing = Math.max(this.options.warmThreads, atLeast) - this.idle.length - this.starting;
    const started = await Promise.all(Array.from({ length: Math.max(0, missing) }, () => this.spawnCounted()));
    for (const thread of started) this.makeIdle(thread);
  }

  acquire(signal?: AbortSignal): Promise<QuickJsThread> {
    if (this.disposed) return Promise.reject(new PoolError("POOL_DISPOSED", "The sandbox engine has been disposed"));
    for (let thread = this.takeIdle(); thread !== undefined; thread = this.takeIdle()) {
      if (thread.alive) {
        thread.hold();
        this.busy.add(thread);
        // Start the replacement now, so a concurrent run does not wait for a thread to boot.
        this.topUp();
        return Promise.resolve(thread);
      }
    }
    if (this.size < this.options.maxThreads) {
      return this.spawnCounted().then((thread) => {
        if (this.disposed) {
          void thread.terminate();
          throw new PoolError("POOL_DISPOSED", "The sandbox engine has been disposed");
        }
        thread.hold();
        this.busy.add(thread);
        return thread;
      });
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        ...(signal === undefined ? {} : { signal }),
        onAbort: () => {
          this.removeWaiter(waiter);
          reject(new PoolError("ACQUIRE_ABORTED", "The run was cancelled while waiting for a free sandbox"));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Returns a thread after a run; `retire` ends it instead (killed, poisoned, or grown too large). */
  release(thread: QuickJsThread, retire: boolean): void {
    this.busy.delete(thread);
    if (retire || this.disposed || !thread.alive) {
      void thread.terminate();
      this.refill();
      return;
    }
    this.makeIdle(thread);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.disposal.abort();
    clearTimeout(this.trimTimer);
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.reject(new PoolError("POOL_DISPOSED", "The sandbox engine has been disposed"));
    }
    const all = [...this.idle.splice(0), ...this.busy];
    this.busy.clear();
    await Promise.all(all.map((thread) => thread.terminate()));
  }

  /** After a thread is gone: serve a waiter with a new thread, or top the warm set back up. */
  private refill(): void {
    if (this.disposed) return;
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      this.spawnCounted().then(
        (thread) => this.handOver(waiter, thread),
        (error: unknown) => {
          waiter.signal?.removeEventListener("abort", waiter.onAbort);
          waiter.reject(error);
        },
      );
      return;
    }
    this.topUp();
  }

  /** Starts a thread in the background while fewer than `warmThreads` are idle or starting. */
  private topUp(): void {
    if (this.disposed || this.size >= this.options.maxThreads) return;
    if (this.idle.length + this.starting < this.options.warmThreads) {
      // A failed background start is not fatal: the next acquire tries again and reports it.
      this.spawnCounted(true).then((thread) => this.makeIdle(thread), () => undefined);
    }
  }

  private handOver(waiter: Waiter, thread: QuickJsThread): void {
    waiter.signal?.removeEventListener("abort", waiter.onAbort);
    if (this.disposed) {
      void thread.terminate();
      waiter.reject(new PoolError("POOL_DISPOSED", "The sandbox engine has been disposed"));
      return;
    }
    thread.hold();
    this.busy.add(thread);
    waiter.resolve(thread);
  }

  /** A free thread serves the longest waiting run, else joins the idle set. */
  private makeIdle(thread: QuickJsThread): void {
    if (this.disposed) {
      void thread.terminate();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      this.handOver(waiter, thread);
      return;
    }
    // An idle thread does not keep the process alive: a host that forgets to dispose its engine
    // still exits, and a shared pool may keep threads warm after its last engine is gone.
    thread.park();
    this.idle.push(thread);
    if (this.idle.length > this.options.warmThreads) this.scheduleTrim();
  }

  /**
   * The idle thread whose next sandbox is furthest along (see CONTROL_LAYOUT.ready), the most
   * recently used among equals: a thread that has just posted a run's result is still rebuilding,
   * and another warm thread may have its sandbox ready.
   */
  private takeIdle(): QuickJsThread | undefined {
    const best = idleToTake(this.idle.map((thread) => thread.readiness));
    return best < 0 ? undefined : this.idle.splice(best, 1)[0];
  }

  private scheduleTrim(): void {
    if (this.trimTimer !== undefined) return;
    this.trimTimer = setTimeout(() => this.trim(), this.options.idleMs);
    this.trimTimer.unref();
  }

  private trim(): void {
    this.trimTimer = undefined;
    while (this.idle.length > this.options.warmThreads) void this.idle.shift()?.terminate();
  }

  private async spawnCounted(background = false): Promise<QuickJsThread> {
    this.starting++;
    try {
      return await this.options.spawn(this.disposal.signal, background);
    } finally {
      this.starting--;
    }
  }

  private removeWaiter(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index !== -1) this.waiters.splice(index, 1);
  }
}

/**
 * Which idle thread a run takes, from each idle thread's readiness in the order they became idle:
 * the furthest along, the most recently idle among equals (its caches are warmest). -1 when none.
 */
export function idleToTake(readiness: readonly number[]): number {
  let best = readiness.length - 1;
  for (let index = best - 1; index >= 0; index--) if ((readiness[index] ?? 0) > (readiness[best] ?? 0)) best = index;
  return best;
}
