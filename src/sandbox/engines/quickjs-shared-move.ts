import { limitError, type RunReport } from "../host/outcome.js";
import type { RunLimits, RunRequest, RunResult, SandboxEngine } from "../types.js";
import { workerUnavailable } from "./engine-runs.js";

/**
 * Shared mode runs QuickJS's asyncify build, which computes about half as fast as the synchronous
 * build of thread mode (bench/RESULTS.md, "Guest compute": the whole interpreter is instrumented so
 * a host call can suspend it). A run that has only computed so far (no host call, no log: nothing of
 * it has been seen, and its result depends on nothing outside it) is worth running again on a thread
 * of its own once it has computed this long: it loses at most about half of this (a run that would have
 * ended just past the point computes that much again, at twice the speed), and a long computation
 * finishes in about half the time. 10 ms, from a fresh process's probe (a 300,000-step loop, 40 runs
 * back to back): staying in shared mode it settled at ~75 ms a run; moving after 50 ms, ~90 ms (it
 * moved every time and lost the 50); after 20 ms, ~60 ms; after 10 ms, ~41 ms.
 */
export const DEFAULT_MOVE_AFTER_CPU_MS = 10;

type FirstAttempt = RunReport["stats"];

/**
 * Guest code the thread-mode engine runs before the first move: V8 compiles QuickJS's hot wasm
 * functions with TurboFan only once they have run a while, and a run already inside the interpreter
 * then keeps the baseline code to its end (no on-stack replacement for wasm), so the first computing
 * run on a fresh module computed several times slower than in shared mode (1.8 s against 0.4 s for a
 * 3-million-step loop, probe). The module's compiled code is shared by every thread of the process.
 */
const WARM_UP = "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } return fib(24);";
const WARM_UP_RUNS = 3;

/**
 * Runs moved out of shared mode, run again in thread mode. The thread-mode engine is made and warmed
 * in the background once a run has computed past the move point (`prepare`); runs move only once it is
 * ready, so no run waits for a thread to start or for V8 to compile the module.
 */
export class RunMover {
  private threadMode: Promise<SandboxEngine | undefined> | undefined;
  private engine: SandboxEngine | undefined;
  private inFlight = 0;
  private disposed = false;
  /** Aborted by dispose: moved runs end as cancelled, as shared runs do, before their engine goes. */
  private readonly ending = new AbortController();
  private readonly reruns = new Set<Promise<RunResult>>();

  /**
   * @param afterCpuMs the move point (see DEFAULT_MOVE_AFTER_CPU_MS).
   * @param makeThreadMode the thread-mode engine, with at most this many workers.
   * @param maxInFlight moved runs at once, each holding a thread of its own (~9 MB), as many as the
   *   cores they can compute on; past that, runs stay in shared mode, which caps its threads the same way.
   */
  constructor(
    readonly afterCpuMs: number,
    private readonly makeThreadMode: (maxWorkers: number) => Promise<SandboxEngine>,
    private readonly maxInFlight: number,
  ) {}

  /**
   * Whether a run starting now may move: the thread-mode engine is warm and has a thread for it, which
   * is held for this run until `release` (it did not move) or the end of `rerun`.
   */
  reserve(): boolean {
    if (this.engine === undefined || this.inFlight >= this.maxInFlight) return false;
    this.inFlight++;
    return true;
  }

  /** A run that reserved a thread ended without moving (or its second attempt ended). */
  release(): void {
    this.inFlight--;
  }

  /** Makes and warms the thread-mode engine, once, in the background; a failure leaves runs in shared mode. */
  prepare(): void {
    this.threadMode ??= (async () => {
      try {
        const engine = await this.makeThreadMode(this.maxInFlight);
        for (let i = 0; i < WARM_UP_RUNS && !this.disposed; i++) await engine.run({ code: WARM_UP });
        if (this.disposed) {
          await engine.dispose();
          return undefined;
        }
        this.engine = engine;
        return engine;
      } catch {
        return undefined;
      }
    })();
  }

  /**
   * The request run again from the start in thread mode, within what the first attempt left of its
   * limits: its CPU counts against `cpuMs`, and the wall limit stays one deadline. A limit reached there
   * is reported against the run's own limit, with both attempts in the stats. Releases the run's reservation.
   */
  async rerun(request: RunRequest, limits: RunLimits, first: FirstAttempt): Promise<RunResult> {
    const left: RunLimits = { ...limits, cpuMs: Math.max(1, Math.ceil(limits.cpuMs - first.cpuMs)), wallMs: Math.max(1, Math.ceil(limits.wallMs - first.wallMs)) };
    const engine = this.engine;
    if (engine === undefined) {
      this.release();
      return workerUnavailable("quickjs", new Error("the thread-mode engine for moved runs was disposed"));
    }
    const signal = request.signal === undefined ? this.ending.signal : AbortSignal.any([request.signal, this.ending.signal]);
    const running = engine.run({ ...request, limits: left, signal });
    this.reruns.add(running);
    let result: RunResult;
    try {
      result = await running;
    } finally {
      this.reruns.delete(running);
      this.release();
    }
    const stats = { ...result.stats, cpuMs: first.cpuMs + result.stats.cpuMs, wallMs: first.wallMs + result.stats.wallMs, movedAfterCpuMs: first.cpuMs };
    if (result.ok) return { ...result, stats };
    const limit = result.error.code === "CPU_LIMIT" ? "cpuMs" : result.error.code === "WALL_LIMIT" ? "wallMs" : undefined;
    // Said against the run's own limits, not what was left of them for the second attempt.
    const error = limit === undefined ? result.error : limitError(limit, limits);
    return { ...result, error, stats };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.ending.abort();
    await Promise.all(this.reruns);
    const engine = await this.threadMode;
    this.engine = undefined;
    await engine?.dispose();
  }
}
