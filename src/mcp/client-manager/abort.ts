/**
 * AbortSignal-based timeouts whose timers and listeners are always released (no Promise.race with
 * a dangling timer). `timedOut()` tells a timeout apart from the parent's abort by our own flag, so
 * errors are classified without looking at messages.
 */
export interface TimeoutScope {
  readonly signal: AbortSignal;
  timedOut(): boolean;
  dispose(): void;
}

export class TimeoutReason extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = "TimeoutReason";
  }
}

export function startTimeout(ms: number, parent?: AbortSignal): TimeoutScope {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new TimeoutReason(ms));
  }, Math.max(0, ms));
  const onParentAbort = (): void => controller.abort(parent?.reason);
  if (parent?.aborted === true) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}

/** Waits for `promise` unless `signal` aborts first (then rejects with the signal's reason). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
