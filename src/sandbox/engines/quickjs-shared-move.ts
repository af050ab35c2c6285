import type { RunReport } from "../host/outcome.js";
import { limitError } from "../host/outcome.js";
import type { RunLimits, RunRequest, RunResult, SandboxEngine } from "../types.js";
import { workerUnavailable } from "./engine-runs.js";

/**
 * Shared mode runs QuickJS's asyncify build, which computes about half as fast as the synchronous
 * build of thread mode (bench/RESULTS.md, "Guest compute": the whole interpreter is instrumented so
 * a host call can suspend it). A run that has only computed so far (no host call, no log: nothing of
 * it has been seen, and its result depends on nothing outside it) is worth running again on a thread
 * of its own once it has computed this long: it loses at most this much, and a long computation
 * finishes in about half the time. 50 ms: a run that needs between 50 and 100 ms in shared mode is up
 * to 25 ms slower, one that needs 500 ms is ~200 ms faster.
 */
export const DEFAULT_MOVE_AFTER_CPU_MS = 50;

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
  private disposed = false;

  constructor(private readonly makeThreadMode: () => Promise<SandboxEngine>) {}

  /** Whether a run may move now (the thread-mode engine is warm). */
  get ready(): boolean {
    return this.engine !== undefined;
  }

  /** Makes and warms the thread-mode engine, once, in the background; a failure leaves runs in shared mode. */
  prepare(): void {
    this.threadMode ??= (async () => {
      try {
        const engine = await this.makeThreadMode();
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
   * is reported against the run's own limit, with both attempts in the stats.
   */
  async rerun(request: RunRequest, limits: RunLimits, first: FirstAttempt): Promise<RunResult> {
    const left: RunLimits = { ...limits, cpuMs: Math.max(1, Math.ceil(limits.cpuMs - first.cpuMs)), wallMs: Math.max(1, Math.ceil(limits.wallMs - first.wallMs)) };
    const engine = this.engine;
    if (engine === undefined) return workerUnavailable("quickjs", new Error("the thread-mode engine for moved runs is not ready"));
    const result = await engine.run({ ...request, limits: left });
    const stats = { ...result.stats, cpuMs: first.cpuMs + result.stats.cpuMs, wallMs: first.wallMs + result.stats.wallMs, movedAfterCpuMs: first.cpuMs };
    if (result.ok) return { ...result, stats };
    const limit = result.error.code === "CPU_LIMIT" ? "cpuMs" : result.error.code === "WALL_LIMIT" ? "wallMs" : undefined;
    // Said against the run's own limits, not what was left of them for the second attempt.
    const error = limit === undefined ? result.error : limitError(limit, limits);
    return { ...result, error, stats };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const engine = await this.threadMode;
    this.engine = undefined;
    await engine?.dispose();
  }
}
