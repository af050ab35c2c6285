import { PoolError } from "./quickjs-pool.js";

interface GateWaiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * How many runs of one engine may hold a worker at once (QuickJsEngineOptions.maxWorkers). The
 * workers themselves belong to a pool shared by every engine of the process, so each engine counts
 * its own runs here; further runs wait in order, and may be cancelled while they wait.
 */
export class RunGate {
  private running = 0;
  private readonly waiters: GateWaiter[] = [];
  private closed = false;

  constructor(private readonly maxRuns: number) {}

  /** Resolves once the run may take a worker; rejects with PoolError on cancel or close. */
  enter(signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(new PoolError("POOL_DISPOSED", "The sandbox engine has been disposed"));
    // Cancelled while it was being admitted: an abort listener added now would never fire, and the
    // run would wait for a free slot and then run anyway.
    if (signal?.aborted === true) return Promise.reject(new PoolError("ACQUIRE_ABORTED", "The run was cancelled while waiting for a free sandbox"));
    if (this.running < this.maxRuns) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: GateWaiter = {
        resolve,
        reject,
        ...(signal === undefined ? {} : { signal }),
        onAbort: () => {
          const index = this.waiters.indexOf(waiter);
          if (index !== -1) this.waiters.splice(index, 1);
          reject(new PoolError("ACQUIRE_ABORTED", "The run was cancelled while waiting for a free sandbox"));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** A run is done with its worker: the longest waiting run goes next. */
  leave(): void {
    const waiter = this.waiters.shift();
    if (waiter === undefined) {
      this.running = Math.max(0, this.running - 1);
      return;
    }
    waiter.signal?.removeEventListener("abort", waiter.onAbort);
    waiter.resolve();
  }

  /** Refuses new runs and rejects every waiting one. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.reject(new PoolError("POOL_DISPOSED", "The sandbox engine has been disposed"));
    }
  }
}
