import type * as Fs from "node:fs";

/** What the meter needs of node:fs (the worker hands in its own `require("node:fs")`). */
export type MeterFs = Pick<typeof Fs, "openSync" | "readSync" | "closeSync">;

export interface PreemptionMeter {
  /** A running stretch begins (the run starts or resumes after a host call or a yield). */
  stretchStarted(): void;
  /**
   * At an interrupt check (`now` from performance.now(), `computed` the run's wall-counted CPU so
   * far): adds what the last interval lost and returns the total taken from the guest, in ms.
   */
  observe(now: number, computed: number): number;
  /** Milliseconds taken from the guest so far. */
  preemptedMs(): number;
  /** The run ended: the file is closed. */
  close(): void;
}

/**
 * The wall time a guest's thread spent waiting for a core while the guest was running: the part of
 * "time the guest ran" that was not CPU time. The engines count a run's CPU as the wall time its
 * guest code runs (host waits excluded), which on a busy machine also counts the time the kernel
 * gave the core to other processes: at load ~12 a script well inside `cpuMs` was ended with
 * CPU_LIMIT. Between two interrupt checks of one running stretch (about a millisecond of compute
 * apart) the thread runs nothing but the guest, so the time it waited on a run queue there was
 * taken from it; the engines subtract it. The pieces before a stretch's first check and after its
 * last stay counted as wall (about a millisecond each), as does a run's first 20 ms (a trivial run
 * would pay for opening the file), so the figure errs towards more CPU, never less.
 *
 * The waiting time is Linux's /proc/thread-self/schedstat, second field (`run_delay`, nanoseconds
 * the thread was runnable but not running), opened by the run's own thread at its first measured
 * check and closed when the run ends; a worker terminated mid-run (a guest stuck in native code) cannot
 * close it, and Node does as the worker exits (the workers are made with `trackUnmanagedFds`). It is exact when the thread reads it itself: a wait is added
 * as the thread gets its core back, before it can read. The first field (time on a core) is not:
 * the kernel adds to it at scheduler ticks (every 1-10 ms), so a millisecond's interval mostly saw
 * "no CPU" and counted all its wall time as taken: a guest got up to ~1.8x its `cpuMs`. Sleeping is
 * not run-queue waiting, so nothing a guest does makes its thread look preempted. Where the file
 * cannot be read, or the kernel keeps no scheduler statistics ("0 0 0"), nothing is subtracted, as
 * before.
 *
 * RUNS IN THE WORKER THREAD too (embedded by its source text, see quickjs-assets.ts): it references
 * nothing outside its body.
 */
export function createPreemptionMeter(fs: MeterFs, path = "/proc/thread-self/schedstat"): PreemptionMeter {
  const OBSERVE_AFTER_MS = 20;
  const buffer = new Uint8Array(64);
  let fd: number | undefined;
  let unavailable = false;
  let lastWall: number | undefined;
  let lastWaited = 0;
  let preempted = 0;

  const close = (): void => {
    if (fd !== undefined) fs.closeSync(fd);
    fd = undefined;
    lastWall = undefined;
  };
  /** The thread's run-queue waiting so far, in ms (schedstat's second field). */
  const threadWaitedMs = (): number | undefined => {
    if (unavailable) return undefined;
    try {
      fd ??= fs.openSync(path, "r");
      const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
      let at = 0;
      while (at < length && buffer[at] !== 32) at++;
      at++;
      let nanoseconds = 0;
      let digits = 0;
      for (; at < length; at++, digits++) {
        const c = buffer[at] as number;
        if (c < 48 || c > 57) break;
        nanoseconds = nanoseconds * 10 + (c - 48);
      }
      if (digits === 0) throw new Error("no run-queue time in schedstat");
      return nanoseconds / 1e6;
    } catch {
      unavailable = true;
      close();
      return undefined;
    }
  };

  return {
    stretchStarted: () => void (lastWall = undefined),
    observe(now, computed) {
      if (computed < OBSERVE_AFTER_MS) return preempted;
      const waited = threadWaitedMs();
      if (waited === undefined) return preempted;
      // Never more than the interval's wall time, whatever the file says.
      if (lastWall !== undefined) preempted += Math.min(Math.max(0, waited - lastWaited), now - lastWall);
      lastWall = now;
      lastWaited = waited;
      return preempted;
    },
    preemptedMs: () => preempted,
    close,
  };
}
