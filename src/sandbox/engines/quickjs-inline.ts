import { errorMessage } from "../../util/errors.js";
import { guestBootstrapSource, guestPieces, PIECES_COMPILED_AHEAD } from "../guest/bootstrap-source.js";
import { DEFAULT_LIMITS, type RunLimits, type RunRequest, type RunResult, type SandboxEngine } from "../types.js";
import { loadInlineAssets } from "./quickjs-inline-assets.js";
import { sharedInlinePool, type InlineInstancePool } from "./quickjs-inline-instances.js";
import { runInline } from "./quickjs-inline-here.js";
import type { InlineRunHandle } from "./quickjs-inline-run-parts.js";
import { EngineRuns } from "./engine-runs.js";
import { RunGate } from "./quickjs-gate.js";
import { PoolError } from "./quickjs-pool.js";
import type { SandboxSources } from "./quickjs-sandbox.js";
import { DEFAULT_SLICE_MS } from "./quickjs-yield.js";
import { admitRun, engineRunPlan, failedBeforeRun, settleRun } from "./run-admission.js";

export interface QuickJsInlineEngineOptions {
  /** Most runs in progress at once (one asyncify instance each); more wait. Default 16. */
  readonly maxInstances?: number;
  /** Idle instances kept, each with its next run's sandbox built ahead. Default 2. */
  readonly idleInstances?: number;
  /** QuickJS's stack limit. Default 256 KiB (the guest shares this thread's native stack). */
  readonly stackBytes?: number;
  /** Drop an instance whose wasm memory grew beyond this after a run (wasm memory never shrinks). Default 32 MiB. */
  readonly retireAboveBytes?: number;
  /** Hard cap of each instance's wasm memory (the guest heap). Default 512 MiB. */
  readonly maxWasmMemoryBytes?: number;
  /** Limits for runs that do not set their own. Default DEFAULT_LIMITS. */
  readonly defaultLimits?: RunLimits;
  /** Restore each instance's sandbox from an image instead of building one (see quickjs-snapshot.ts). Default true. */
  readonly sandboxSnapshots?: boolean;
  /**
   * Compute a guest does before this thread's event loop runs again (signals, timers, I/O, other
   * runs), in ms; 0 never yields. Default DEFAULT_SLICE_MS (quickjs-yield.ts).
   */
  readonly sliceMs?: number;
}


let sources: SandboxSources | undefined;
const sandboxSources = (): SandboxSources => (sources ??= { bootstrap: guestBootstrapSource(), pieces: guestPieces() });

/**
 * The in-thread engine: QuickJS's asyncify build on the caller's thread. A host call suspends the
 * guest's wasm stack instead of blocking a worker thread, so it costs no thread crossing and a live
 * sandbox holds only its instance's touched memory. A computing guest yields this thread to its
 * event loop after every time slice (quickjs-yield.ts), so signals, timers, I/O and cancels are
 * served while it computes. The price: a guest stuck inside one native call that never checks for
 * interrupts holds the thread and cannot be ended from outside. Meant
 * for one-shot faces (`mcpvm run`, the agent); the gateway keeps the worker engine.
 */
export async function createQuickJsInlineEngine(options: QuickJsInlineEngineOptions = {}): Promise<SandboxEngine> {
  const assets = await loadInlineAssets();
  const pool = sharedInlinePool(assets, sandboxSources(), PIECES_COMPILED_AHEAD, options.maxWasmMemoryBytes ?? 512 * 1024 * 1024, options.idleInstances ?? 2, options.sandboxSnapshots ?? true);
  const engine = new QuickJsInlineEngine(pool, options);
  await engine.warm();
  return engine;
}

class QuickJsInlineEngine implements SandboxEngine {
  readonly kind = "quickjs-inline" as const;
  private readonly gate: RunGate;
  private readonly active = new Set<InlineRunHandle>();
  private readonly runs = new EngineRuns("quickjs-inline");
  private readonly defaultLimits: RunLimits;
  private readonly stackBytes: number;
  private readonly retireAboveBytes: number;
  private readonly sliceMs: number;
  private disposed = false;

  constructor(
    private readonly pool: InlineInstancePool,
    options: QuickJsInlineEngineOptions,
  ) {
    this.gate = new RunGate(options.maxInstances ?? 16);
    this.defaultLimits = options.defaultLimits ?? DEFAULT_LIMITS;
    this.stackBytes = options.stackBytes ?? 256 * 1024;
    // Memory freed by a run stays in the instance and is reused without growing it, so a later run's
    // growth check would miss that much: an instance that grew noticeably is dropped.
    this.retireAboveBytes = options.retireAboveBytes ?? 32 * 1024 * 1024;
    this.sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  }

  warm(): Promise<void> {
    return this.pool.warm();
  }

  run(request: RunRequest): Promise<RunResult> {
    return this.runs.track(() => this.execute(request));
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.gate.close();
    // Runs in progress end as cancelled at their next interrupt check or host call.
    for (const handle of this.active) handle.stop("cancel");
    // Idle instances stay in the process-wide pool for the next engine (they keep nothing alive).
    await this.runs.settled();
  }

  private async execute(request: RunRequest): Promise<RunResult> {
    const admitted = await admitRun("quickjs-inline", request, this.defaultLimits, this.disposed);
    if (!admitted.ok) return admitted.result;
    const { limits, filename, source, unparsed } = admitted;

    try {
      await this.gate.enter(request.signal);
    } catch (error) {
      if (error instanceof PoolError && error.code === "ACQUIRE_ABORTED") return failedBeforeRun("quickjs-inline", { code: "CANCELLED", message: error.message });
      return failedBeforeRun("quickjs-inline", { code: "ENGINE_UNAVAILABLE", message: errorMessage(error) });
    }
    try {
      if (this.disposed) return failedBeforeRun("quickjs-inline", { code: "ENGINE_UNAVAILABLE", message: "The QuickJS engine has been disposed" });
      const { slot, sandbox } = await this.pool.acquire();
      let handle: InlineRunHandle | undefined;
      const { report, poisoned, trapped } = await runInline(
        slot.instance,
        sandbox,
        engineRunPlan(admitted, request, this.stackBytes),
        this.sliceMs,
        (started) => {
          handle = started;
          this.active.add(started);
        },
      );
      if (handle !== undefined) this.active.delete(handle);
      // A run stopped mid-flight leaves nothing an instance's sandbox image does not undo; a trap does.
      this.pool.release(slot, sandbox, poisoned && (slot.image === undefined || trapped || slot.instance.suspended), this.retireAboveBytes);
      return await settleRun("quickjs-inline", report, { limits, source, filename }, unparsed);
    } finally {
      this.gate.leave();
    }
  }
}
