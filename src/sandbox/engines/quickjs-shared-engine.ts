import { availableParallelism } from "node:os";
import { DEFAULT_LIMITS, type RunLimits, type RunRequest, type RunResult, type SandboxEngine } from "../types.js";
import { EngineRuns, workerUnavailable } from "./engine-runs.js";
import { RunGate } from "./quickjs-gate.js";
import { loadSharedWorkerAssets } from "./quickjs-shared-assets.js";
import { sharedPlacement, type SharedThreadPlacement } from "./quickjs-shared-placement.js";
import { runOnSharedThread, type SharedRunHandle } from "./quickjs-shared-run.js";
import type { QuickJsEngineOptions } from "./quickjs.js";
import { admitRun, engineRunPlan, failedBeforeRun, settleRun } from "./run-admission.js";
import { DEFAULT_MOVE_AFTER_CPU_MS, RunMover } from "./quickjs-shared-move.js";

/**
 * The worker engine in shared mode (QuickJsEngineOptions.workerMode "shared"): the in-thread engine's
 * asyncify runs inside worker threads, several per thread (quickjs-shared-worker.ts), placed by
 * quickjs-shared-placement.ts. Resolves once one thread is warm; rejects if QuickJS cannot start.
 */
export async function createSharedQuickJsEngine(options: QuickJsEngineOptions = {}, threadMode?: (maxWorkers: number) => Promise<SandboxEngine>): Promise<SandboxEngine> {
  const assets = await loadSharedWorkerAssets();
  const maxThreads = Math.max(1, options.maxThreads ?? availableParallelism());
  const warmThreads = Math.min(maxThreads, Math.max(1, options.warmWorkers ?? 1));
  const placement = sharedPlacement(
    assets,
    {
      stackSizeMb: options.workerStackMb ?? 8,
      maxWasmMemoryBytes: options.maxWasmMemoryBytes ?? 512 * 1024 * 1024,
      images: options.sandboxSnapshots ?? true,
      idleInstances: 2,
      // Memory freed by a run stays in its instance's heap and is reused without growing it, so a later
      // run's growth check would miss that much: an instance that grew noticeably is dropped.
      retireAboveBytes: options.retireAboveBytes ?? 32 * 1024 * 1024,
    },
    { maxThreads, warmThreads, idleMs: options.idleWorkerMs ?? 30_000, spawnAfterMs: options.spawnThreadAfterMs ?? 20 },
  );
  await placement.warm(warmThreads);
  return new SharedQuickJsEngine(placement, options, threadMode, maxThreads);
}

// Process-wide: runs of every engine share threads, and a thread routes messages by run id.
let nextRunId = 1;

class SharedQuickJsEngine implements SandboxEngine {
  readonly kind = "quickjs" as const;
  private readonly gate: RunGate;
  private readonly active = new Set<SharedRunHandle>();
  private readonly runs = new EngineRuns("quickjs");
  private readonly defaultLimits: RunLimits;
  private readonly stackBytes: number;
  private readonly killGraceMs: number;
  private readonly mover: RunMover | undefined;
  private disposed = false;

  constructor(
    private readonly placement: SharedThreadPlacement,
    options: QuickJsEngineOptions,
    threadMode: ((maxWorkers: number) => Promise<SandboxEngine>) | undefined,
    maxThreads: number,
  ) {
    this.gate = new RunGate(options.maxWorkers ?? 16);
    this.defaultLimits = options.defaultLimits ?? DEFAULT_LIMITS;
    this.stackBytes = options.stackBytes ?? 512 * 1024;
    this.killGraceMs = options.killGraceMs ?? 250;
    const moveAfter = options.moveToThreadAfterCpuMs ?? DEFAULT_MOVE_AFTER_CPU_MS;
    this.mover = threadMode === undefined || !Number.isFinite(moveAfter) ? undefined : new RunMover(Math.max(0, moveAfter), threadMode, maxThreads);
  }

  run(request: RunRequest): Promise<RunResult> {
    return this.runs.track(() => this.execute(request));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.gate.close();
    // This engine's runs end as cancelled (threads are shared: other engines' runs go on).
    for (const handle of this.active) handle.stop("cancel");
    // A moved run is the thread-mode engine's now: disposing it ends that run as cancelled too.
    await Promise.all([this.mover?.dispose(), this.runs.settled()]);
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
    let handle: SharedRunHandle | undefined;
    try {
      if (this.disposed) return failedBeforeRun("quickjs", { code: "ENGINE_UNAVAILABLE", message: "The QuickJS engine has been disposed" });
      const mover = this.mover?.reserve() === true ? this.mover : undefined;
      let report;
      try {
        report = await runOnSharedThread(
          this.placement,
          {
            ...engineRunPlan(admitted, request, this.stackBytes),
            runId: nextRunId++,
            killGraceMs: this.killGraceMs,
            ...(mover === undefined ? {} : { moveAfterCpuMs: mover.afterCpuMs }),
          },
          (started) => {
            handle = started;
            this.active.add(started);
            if (this.disposed) started.stop("cancel");
          },
        );
      } catch (error) {
        mover?.release();
        return workerUnavailable("quickjs", error);
      }
      if (mover !== undefined && report.outcome.kind === "moved") return await mover.rerun(request, limits, report.stats);
      mover?.release();
      // A guest that computed this long without a host call would have moved: from now on runs may (see RunMover).
      if (this.mover !== undefined && report.stats.hostCalls === 0 && report.stats.cpuMs >= this.mover.afterCpuMs) this.mover.prepare();
      return await settleRun("quickjs", report, { limits, source, filename }, unparsed);
    } finally {
      if (handle !== undefined) this.active.delete(handle);
      this.gate.leave();
    }
  }
}
