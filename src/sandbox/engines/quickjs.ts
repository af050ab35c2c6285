import { errorMessage } from "../../util/errors.js";
import { DEFAULT_LIMITS, type RunLimits, type RunRequest, type RunResult, type SandboxEngine } from "../types.js";
import { loadQuickJsAssets, type QuickJsAssets } from "./quickjs-assets.js";
import { defaultWorkerOptions, workerModeFromEnv } from "./quickjs-defaults.js";
import { workerUnavailable } from "./engine-runs.js";
import { RunGate } from "./quickjs-gate.js";
import { SPIN_SLOTS } from "./quickjs-protocol.js";
import { runOnThread } from "./quickjs-run.js";
import { admitRun, engineRunPlan, failedBeforeRun, settleRun } from "./run-admission.js";
import { leaseSharedPool, type SharedPoolLease } from "./quickjs-shared-pool.js";
import type { QuickJsThread } from "./quickjs-thread.js";

export interface QuickJsEngineOptions {
  /**
   * Most runs of this engine executing at once (one worker thread each); more wait. Workers come from
   * a pool shared by every engine of the process with the same workerStackMb, maxWasmMemoryBytes and
   * spinningWorkers. Default 16.
   */
  readonly maxWorkers?: number;
  /**
   * Workers kept started and idle; one taken by a run is replaced in the background, so a run only
   * waits for a thread to start when more runs arrive at once than this. Default 1. With 0, creating
   * the engine still starts one worker (QuickJS must be able to start), which serves the first run and
   * is not replaced: what a process that runs one script needs (`mcpvm run`).
   */
  readonly warmWorkers?: number;
  /**
   * Idle workers beyond `warmWorkers` end after this long; the shared pool also keeps its warm workers
   * this long after its last engine is disposed (idle workers never keep the process alive). Default 30 s.
   */
  readonly idleWorkerMs?: number;
  /** After the wall deadline or a cancel, how long a guest may take to stop before its worker is killed. Default 250 ms. */
  readonly killGraceMs?: number;
  /** QuickJS's stack limit. Default 512 KiB. */
  readonly stackBytes?: number;
  /** Native stack of each worker thread; must leave room above `stackBytes`. Default 8 MiB. */
  readonly workerStackMb?: number;
  /** Replace a worker whose wasm memory grew beyond this (wasm memory never shrinks). Default 32 MiB. */
  readonly retireAboveBytes?: number;
  /**
   * Most workers that may busy-wait (briefly) for a host call's reply instead of sleeping, which
   * roughly halves a fast host call's latency. Default: CPU count - 1, leaving a core for the host.
   */
  readonly spinningWorkers?: number;
  /**
   * Hard cap of each worker's wasm memory (the guest heap). QuickJS's own accounting misses many
   * allocations in this build, so this cap is what stops a guest allocating gigabytes; runs also end
   * with MEMORY_LIMIT when the memory grew by more than their memoryBytes. Default 512 MiB.
   */
  readonly maxWasmMemoryBytes?: number;
  /** Limits for runs that do not set their own. Default DEFAULT_LIMITS. */
  readonly defaultLimits?: RunLimits;
  /**
   * Each worker keeps an image of its wasm memory with a sandbox built (runtime, context, bootstrap
   * and every piece compiled) and restores it for each run instead of building one (see
   * quickjs-snapshot.ts). Off: every sandbox is built and freed. Default true.
   */
  readonly sandboxSnapshots?: boolean;
  /**
   * "shared": several runs share each worker thread (QuickJS's asyncify build, a run suspended in a
   * host call holds only its own instance); at most `maxThreads` threads. "thread": one run per
   * worker thread at a time (the synchronous build; a guest waiting for the host holds its thread;
   * its guests compute about 2x faster: bench/RESULTS.md, "Guest compute"). Default: MCPVM_QUICKJS_WORKERS if set, else "shared".
   */
  readonly workerMode?: "shared" | "thread";
  /** Shared mode: most worker threads, shared by every engine with the same worker options. Default: CPU count. */
  readonly maxThreads?: number;
  /**
   * Shared mode: how long every thread must have been computing without a pause before a new run starts
   * another thread: a run placed beside a computing guest (the new thread serves the runs after it), or
   * one that waits because no thread has room. Runs already placed never start one. A run usually
   * yields within a millisecond; a thread takes tens of ms to start and ~10 MB to keep. Default 20 ms.
   */
  readonly spawnThreadAfterMs?: number;
  /**
   * Shared mode: a run whose guest has computed this long (CPU ms) without a host call or a log is run
   * again from the start in thread mode, where the synchronous build computes about twice as fast
   * (bench/RESULTS.md, "Guest compute"). Nothing of the first attempt was seen, so only time is lost: about
   * half of this at most, for a run that would have ended just past it in shared mode. Its CPU counts
   * against the run's CPU limit, and the wall limit is one deadline for both. `Infinity` never moves a
   * run. Default 10 ms (quickjs-shared-move.ts says why); at most as many runs at once as `maxThreads`.
   */
  readonly moveToThreadAfterCpuMs?: number;
}


/**
 * The portable engine: QuickJS on worker threads shared by every engine of the process with the same
 * worker options, each run in a fresh runtime and context built while idle. In shared mode (the
 * default) several runs share a thread (quickjs-shared-engine.ts); in thread mode, below, each run
 * holds a thread running the synchronous build (see quickjs-shared-pool.ts). Resolves once one
 * worker is warm; rejects if QuickJS cannot start at all.
 */
export async function createQuickJsEngine(options: QuickJsEngineOptions = {}): Promise<SandboxEngine> {
  // Imported in shared mode only: a thread-mode process (`mcpvm run`) never loads the shared engine's ~80 KB.
  if ((options.workerMode ?? DEFAULT_WORKER_MODE) === "shared") {
    // Thread mode for the runs shared mode moves, made on the first one (passed in: the shared engine cannot import this file).
    const threadMode = (maxWorkers: number) => createQuickJsEngine({ ...options, workerMode: "thread", warmWorkers: 0, maxWorkers });
    return (await import("./quickjs-shared-engine.js")).createSharedQuickJsEngine(options, threadMode);
  }
  const assets = await loadQuickJsAssets();
  const engine = new QuickJsEngine(assets, options);
  try {
    await engine.warm();
  } catch (error) {
    await engine.dispose();
    throw error;
  }
  return engine;
}

/**
 * See QuickJsEngineOptions.workerMode: "shared" (a live sandbox holds its own wasm instance, not a
 * thread; docs/ARCHITECTURE.md, "Sandbox engines"); MCPVM_QUICKJS_WORKERS=thread chooses the
 * one-run-per-thread mode for a process.
 */
export const DEFAULT_WORKER_MODE: "shared" | "thread" = workerModeFromEnv() ?? "shared";

// Process-wide, because workers are shared: a stale message of one engine's run can never match
// another engine's run on the same worker.
let nextRunId = 1;

class QuickJsEngine implements SandboxEngine {
  readonly kind = "quickjs" as const;
  readonly liveSyncProgress = true;
  private readonly lease: SharedPoolLease;
  private readonly gate: RunGate;
  /** Workers serving this engine's runs now: dispose ends these, and only these. */
  private readonly leased = new Set<QuickJsThread>();
  private readonly defaultLimits: RunLimits;
  private readonly stackBytes: number;
  private readonly killGraceMs: number;
  private readonly retireAboveBytes: number;
  private disposed = false;

  constructor(assets: QuickJsAssets, options: QuickJsEngineOptions) {
    const defaults = defaultWorkerOptions();
    this.lease = leaseSharedPool(
      assets,
      {
        stackSizeMb: options.workerStackMb ?? defaults.stackSizeMb,
        maxWasmMemoryBytes: options.maxWasmMemoryBytes ?? defaults.maxWasmMemoryBytes,
        spinningWorkers: options.spinningWorkers ?? defaults.spinningWorkers,
        snapshots: options.sandboxSnapshots ?? defaults.snapshots,
      },
      { warmThreads: options.warmWorkers ?? 1, idleMs: options.idleWorkerMs ?? 30_000 },
    );
    this.gate = new RunGate(options.maxWorkers ?? 16);
    this.defaultLimits = options.defaultLimits ?? DEFAULT_LIMITS;
    this.stackBytes = options.stackBytes ?? 512 * 1024;
    this.killGraceMs = options.killGraceMs ?? 250;
    // Memory freed by a run stays in the worker's wasm heap and is reused without growing it, so a
    // later run's growth check would miss that much: a worker whose heap grew noticeably is replaced,
    // which keeps every run within about 16 MiB of its memory budget.
    this.retireAboveBytes = options.retireAboveBytes ?? 32 * 1024 * 1024;
  }

  warm(): Promise<void> {
    return this.lease.pool.warm(1);
  }

  async run(request: RunRequest): Promise<RunResult> {
    try {
      return await this.execute(request);
    } catch (error) {
      return failedBeforeRun("quickjs", { code: "ENGINE_FAILURE", message: `The QuickJS engine failed: ${errorMessage(error)}` });
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.gate.close();
    // This engine's runs end (their workers are replaced); other engines' runs on the shared pool go on.
    await Promise.all([...this.leased].map((thread) => thread.terminate()));
    this.lease.release();
  }

  private async execute(request: RunRequest): Promise<RunResult> {
    const admitted = await admitRun("quickjs", request, this.defaultLimits, this.disposed);
    if (!admitted.ok) return admitted.result;
    const { limits, filename, source, unparsed } = admitted;

    try {
      await this.gate.enter(request.signal);
    } catch (error) {
      return workerUnavailable("quickjs", error);
    }
    try {
      let thread: QuickJsThread;
      try {
        thread = await this.lease.pool.acquire(request.signal);
      } catch (error) {
        return workerUnavailable("quickjs", error);
      }
      if (this.disposed) {
        this.lease.pool.release(thread, false);
        return failedBeforeRun("quickjs", { code: "ENGINE_UNAVAILABLE", message: "The QuickJS engine has been disposed" });
      }
      this.leased.add(thread);
      const running = new Int32Array(this.lease.spin.counters);
      Atomics.add(running, SPIN_SLOTS.running, 1);
      const { report, retire } = await runOnThread(thread, {
        ...engineRunPlan(admitted, request, this.stackBytes),
        runId: nextRunId++,
        killGraceMs: this.killGraceMs,
        retireAboveBytes: this.retireAboveBytes,
      });
      Atomics.sub(running, SPIN_SLOTS.running, 1);
      this.leased.delete(thread);
      this.lease.pool.release(thread, retire);
      return await settleRun("quickjs", report, { limits, source, filename }, unparsed);
    } finally {
      this.gate.leave();
    }
  }
}
