import { errorMessage } from "../../../util/errors.js";
import { guestManifestText } from "../../guest/bootstrap-source.js";
import { transformGuestSource } from "../../guest/transform.js";
import { buildRunResult, type EngineOutcome } from "../../host/outcome.js";
import { runEnded } from "../../host/run-ended.js";
import { resolveLimits } from "../../limits.js";
import { DEFAULT_LIMITS, type RunLimits, type RunRequest, type RunResult, type SandboxEngine } from "../../types.js";
import { type AddonLocation, loadHyperlightAddon } from "./addon.js";
import { createRunBridge } from "./bridge.js";
import { buildHandlerSource, EVAL_FILENAME, MAIN_SCOPE_PREFIX, type HyperlightRunEvent } from "./guest.js";
import { outcomeFromCallError, outcomeFromReply } from "./outcome.js";
import { VmPool } from "./pool.js";
import type { HyperlightVm, VmSizes } from "./vm.js";

export interface HyperlightEngineOptions extends AddonLocation {
  /** Booted VMs kept per size for reuse (default 2). */
  readonly maxIdleVms?: number;
  /** Guest heap on top of the run's memoryBytes, for the JS runtime itself (default 4 MiB). */
  readonly runtimeOverheadBytes?: number;
  /** Largest program plus prelude accepted, in UTF-8 bytes (sizes the VM input buffer; default 1 MiB). */
  readonly maxCodeBytes?: number;
  /** Limits used where a request does not set its own. */
  readonly defaultLimits?: Partial<RunLimits>;
}

const MiB = 1024 * 1024;
const U32_MAX = 0xffff_ffff;
/** The addon's wall monitor is a backstop: our own timer fires first so host calls are released cleanly. */
const WALL_BACKSTOP_GRACE_MS = 250;

/**
 * The Hyperlight engine: each run executes in a hardware-isolated micro-VM running QuickJS, with
 * the same guest bootstrap, codec, transform and outcome rules as the quickjs engine. Host
 * functions are reached through one bridge function; the VM blocks while async host work
 * completes. Memory is the VM heap, CPU and wall time the addon's monitors plus our own deadline
 * timer (which also releases an in-flight host call); every run ends by restoring the VM's clean
 * snapshot. Rejects with a HyperlightError when the addon cannot be loaded; VMs boot on demand.
 */
export async function createHyperlightEngine(options: HyperlightEngineOptions = {}): Promise<SandboxEngine> {
  const addon = await loadHyperlightAddon(options);
  if (!addon.ok) throw addon.error;
  const pool = new VmPool(addon.api, buildHandlerSource(), options.maxIdleVms ?? 2);
  const defaults = resolveLimits(options.defaultLimits, DEFAULT_LIMITS);
  const maxCodeBytes = options.maxCodeBytes ?? MiB;
  let disposed = false;

  const run = async (request: RunRequest): Promise<RunResult> => {
    const started = Date.now();
    const unstarted = (code: "INVALID_REQUEST" | "ENGINE_UNAVAILABLE" | "CANCELLED" | "SYNTAX_ERROR", message: string, position?: { line: number; column: number; snippet?: string; file?: string }): RunResult => ({
      ok: false,
      error: { code, message, ...(code === "SYNTAX_ERROR" ? { name: "SyntaxError" } : {}), ...position },
      logs: [],
      stats: { engine: "hyperlight", wallMs: Date.now() - started, cpuMs: 0, hostCalls: 0, outputBytes: 0, droppedLogs: 0 },
    });
    if (disposed) return unstarted("ENGINE_UNAVAILABLE", "This hyperlight engine has been disposed");
    let limits: RunLimits;
    try {
      limits = resolveLimits(request.limits, defaults);
    } catch (error) {
      return unstarted("INVALID_REQUEST", errorMessage(error));
    }
    const codeBytes = Buffer.byteLength(request.code) + Buffer.byteLength(request.prelude ?? "");
    if (codeBytes > maxCodeBytes) return unstarted("INVALID_REQUEST", `The script is ${codeBytes} bytes; this engine accepts at most ${maxCodeBytes}`);
    const transformed = transformGuestSource(request.code);
    if (!transformed.ok) return unstarted("SYNTAX_ERROR", transformed.error.message, { ...transformed.error, file: request.filename ?? "guest.js" });
    if (request.signal?.aborted) return unstarted("CANCELLED", "The run was cancelled before it started");

    const deadline = started + limits.wallMs;
    const controller = new AbortController();
    const bridge = createRunBridge({ modules: request.modules ?? {}, signal: controller.signal, deadline, outputBytes: limits.outputBytes, memoryBytes: limits.memoryBytes, ...(limits.toolCalls === undefined ? {} : { toolCalls: limits.toolCalls }), code: request.code });
    let ended: "wall" | "cancel" | undefined;
    let interrupt: (() => void) | undefined;
    const stop = (why: "wall" | "cancel"): void => {
      ended ??= why;
      if (!controller.signal.aborted) controller.abort(runEnded(why === "wall" ? "WALL_LIMIT" : "CANCELLED"));
      interrupt?.();
    };
    const timer = setTimeout(() => stop("wall"), limits.wallMs);
    const onCancel = (): void => stop("cancel");
    request.signal?.addEventListener("abort", onCancel, { once: true });
    const event: HyperlightRunEvent = {
      code: transformed.source.code,
      manifest: guestManifestText(request.modules ?? {}, limits.outputBytes, request.toolsGlobal),
      ...(request.prelude === undefined ? {} : { prelude: request.prelude }),
    };
    const execute = async (): Promise<{ outcome: EngineOutcome; cpuMs: number }> => {
      let vm: HyperlightVm;
      try {
        vm = await pool.acquire(vmSizes(limits, maxCodeBytes, options));
      } catch (error) {
        return { outcome: { kind: "failure", message: `The micro-VM could not be started: ${errorMessage(error)}` }, cpuMs: 0 };
      }
      try {
        // Stopped while the VM was booting: our verdict below stands, the guest never starts.
        if (ended !== undefined) return { outcome: { kind: "cancelled" }, cpuMs: 0 };
        interrupt = vm.interrupt;
        const call = await vm.call(
          event,
          { cpuTimeoutMs: clampU32(limits.cpuMs), wallClockTimeoutMs: clampU32(deadline - Date.now() + WALL_BACKSTOP_GRACE_MS), gc: false },
          bridge.dispatch,
          (message) => bridge.addLog("log", message.replace(/\n$/, "")),
        );
        const cpuMs = Math.round(call.stats?.cpuTimeMs ?? 0);
        return { outcome: call.ok ? outcomeFromReply(call.value) : outcomeFromCallError(call.error, call.stats), cpuMs };
      } finally {
        interrupt = undefined;
        await pool.release(vm);
      }
    };
    let executed: { outcome: EngineOutcome; cpuMs: number };
    try {
      executed = await execute();
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onCancel);
      if (!controller.signal.aborted) controller.abort(runEnded("RUN_COMPLETED"));
    }
    let outcome = executed.outcome;
    // Our own timer and the caller's cancel decide first: the kill they caused surfaces as ERR_CANCELLED too.
    if (ended === "cancel") outcome = { kind: "cancelled" };
    else if (ended === "wall") outcome = { kind: "limit", limit: "wallMs" };
    const filename = request.filename ?? "guest.js";
    const result = buildRunResult(
      {
        outcome,
        logs: bridge.logs,
        logBytes: bridge.logBytes(),
        droppedLogs: bridge.droppedLogs(),
        stats: { engine: "hyperlight", wallMs: Date.now() - started, cpuMs: executed.cpuMs, hostCalls: bridge.hostCalls() },
      },
      {
        limits,
        // The handler opens the main function inside a scope function on the same first line.
        source: { ...transformed.source, firstLineShift: transformed.source.firstLineShift + MAIN_SCOPE_PREFIX.length },
        filename: EVAL_FILENAME,
      },
    );
    return withFilename(result, filename);
  };

  return {
    kind: "hyperlight",
    run: (request) =>
      run(request).catch(
        (error: unknown): RunResult => ({
          ok: false,
          error: { code: "ENGINE_FAILURE", message: `Hyperlight engine failure: ${errorMessage(error)}` },
          logs: [],
          stats: { engine: "hyperlight", wallMs: 0, cpuMs: 0, hostCalls: 0, outputBytes: 0, droppedLogs: 0 },
        }),
      ),
    dispose: async () => {
      disposed = true;
      await pool.close();
    },
  };
}

function vmSizes(limits: RunLimits, maxCodeBytes: number, options: HyperlightEngineOptions): VmSizes {
  return {
    // The guest heap also holds the JS runtime itself, hence the overhead on top of memoryBytes.
    heapBytes: Math.min(U32_MAX, limits.memoryBytes + (options.runtimeOverheadBytes ?? 4 * MiB)),
    // Scratch includes the guest stack; QuickJS's own stack limit must trip before it runs out.
    scratchBytes: 16 * MiB,
    // The event and the reply cross as JSON strings, so escaping can grow them several times.
    inputBufferBytes: Math.min(U32_MAX, roundUp(maxCodeBytes * 3 + 64 * 1024)),
    outputBufferBytes: Math.min(U32_MAX, roundUp(limits.outputBytes * 6 + 64 * 1024)),
  };
}

function roundUp(bytes: number): number {
  return Math.ceil(bytes / MiB) * MiB;
}

function clampU32(value: number): number {
  return Math.max(1, Math.min(U32_MAX, Math.floor(value)));
}

/** Guest code runs through `eval` inside the VM, so its stack frames name EVAL_FILENAME; show the caller's name. */
function withFilename(result: RunResult, filename: string): RunResult {
  if (result.ok) return result;
  const { stack, file } = result.error;
  return {
    ...result,
    error: {
      ...result.error,
      ...(stack === undefined ? {} : { stack: stack.split(`${EVAL_FILENAME}:`).join(`${filename}:`) }),
      ...(file === undefined ? {} : { file: filename }),
    },
  };
}
