import type * as QuickJs from "quickjs-emscripten-core";
import type * as WorkerThreads from "node:worker_threads";
import type { EngineOutcome } from "../host/outcome.js";
import type { logEntryBytes } from "../host/output-budget.js";
import type { meterWasmHeap } from "./quickjs-heap.js";
import type { InlineInstance, instantiateAsyncify } from "./quickjs-inline-adapter.js";
import type { InlineAssets } from "./quickjs-inline-assets.js";
import type { InlineInstancePool, InlinePoolParts } from "./quickjs-inline-instances.js";
import type { runAsyncify } from "./quickjs-inline-run.js";
import type { AsyncifyRunParts, HostCallPort, InlineRunHandle } from "./quickjs-inline-run-parts.js";
import type { createPreemptionMeter, MeterFs } from "./preemption-meter.js";
import type { prepareInlineSandbox, releaseInlineSandbox } from "./quickjs-inline-sandbox.js";
import type { compileQuickJsPiece } from "./quickjs-sandbox.js";
import type { FromSharedWorker, SharedRunPlan, SharedWorkerBoot, ToSharedWorker } from "./quickjs-shared-protocol.js";
import type { decodeSharedAnswer, decodeSharedRun, encodeSharedCall, encodeSharedDone } from "./quickjs-shared-wire.js";
import type { snapshotQuickJsSandbox } from "./quickjs-snapshot.js";
import type { SHARED_CONTROL } from "./quickjs-shared-protocol.js";
import type { installYieldingInterrupts, timeSlices } from "./quickjs-yield.js";

/**
 * The in-thread engine's own code, handed to a shared worker by source text (an eval worker cannot
 * import our modules: they may be TypeScript under test, or inside the CLI's bundle).
 */
export interface SharedWorkerParts {
  readonly instantiate: typeof instantiateAsyncify;
  readonly meterHeap: typeof meterWasmHeap;
  readonly Pool: typeof InlineInstancePool;
  readonly prepare: typeof prepareInlineSandbox;
  readonly release: typeof releaseInlineSandbox;
  readonly compilePiece: typeof compileQuickJsPiece;
  readonly snapshot: typeof snapshotQuickJsSandbox;
  readonly run: typeof runAsyncify;
  readonly logEntryBytes: typeof logEntryBytes;
  readonly installYielding: typeof installYieldingInterrupts;
  readonly timeSlices: typeof timeSlices;
  /** DEFAULT_SLICE_MS (quickjs-yield.ts). */
  readonly sliceMs: number;
  readonly control: typeof SHARED_CONTROL;
  readonly encodeCall: typeof encodeSharedCall;
  readonly decodeAnswer: typeof decodeSharedAnswer;
  readonly decodeRun: typeof decodeSharedRun;
  readonly encodeDone: typeof encodeSharedDone;
  readonly preemption: typeof createPreemptionMeter;
}

/**
 * The program of a shared QuickJS worker thread: the in-thread engine's asyncify runs
 * (quickjs-inline-*.ts), several at once. Started as `(${source})(require, parts)` in an eval worker
 * (see quickjs-shared-assets.ts), so this function references nothing outside its body.
 *
 * Each run takes an asyncify instance of the worker's pool (one suspended stack per instance), with a
 * fresh runtime and context restored from the instance's image or built. A host call is posted to the
 * main thread and the guest stays suspended in its own instance while the reply travels back as a
 * message, so the worker's event loop serves other runs meanwhile (a run alone on the thread sleeps
 * for a small reply in shared memory instead: the waited call, SHARED_CONTROL); a computing guest yields that
 * event loop after every time slice (quickjs-yield.ts). Limits are the run's own
 * interrupt handler's (CPU, wall, memory, output); a stop from the main thread arrives as a message,
 * and also in shared memory, read at every interrupt check, for when another guest of this thread is
 * computing and no message can be read.
 */
export function sharedQuickJsWorkerMain(load: (id: string) => unknown, parts: SharedWorkerParts): void {
  // Nothing this thread writes is read by anyone (see SharedQuickJsThread.spawn).
  process.stdout.write = () => true;
  process.stderr.write = () => true;
  const threads = load("node:worker_threads") as typeof WorkerThreads;
  const fs = load("node:fs") as MeterFs;
  const port = threads.parentPort as WorkerThreads.MessagePort;
  const boot = threads.workerData as SharedWorkerBoot;
  const core = load(boot.corePath) as typeof QuickJs;
  const published = (load(boot.variantPath) as { default: QuickJs.QuickJSAsyncVariant }).default;
  const glue = load(boot.emscriptenPath) as Awaited<ReturnType<QuickJs.QuickJSAsyncVariant["importModuleLoader"]>>;
  const assets: InlineAssets = {
    wasmModule: boot.wasmModule,
    memoryLayout: boot.memoryLayout,
    variant: { type: "async", importFFI: published.importFFI, importModuleLoader: () => Promise.resolve(glue) },
  };
  const C = parts.control;
  const control = new Int32Array(boot.control);
  const reply = Buffer.from(boot.reply);
  /** Messages read from the port (see SHARED_CONTROL.posted). */
  let received = 0;
  const instanceParts = { core, meterHeap: parts.meterHeap, installYielding: parts.installYielding };
  const poolParts: InlinePoolParts = {
    newInstance: (shared: InlineAssets, max: number): Promise<InlineInstance> => parts.instantiate(instanceParts, shared, max),
    prepare: parts.prepare,
    release: parts.release,
    compilePiece: parts.compilePiece,
    snapshot: parts.snapshot,
  };
  const pool = new parts.Pool(poolParts, assets, boot.sources, boot.piecesAhead, boot.maxWasmMemoryBytes, boot.images);
  pool.idleCap = boot.idleInstances;

  interface RunState {
    readonly calls: Map<number, { readonly resolve: (text: string) => void; readonly live: ((text: string) => void) | undefined }>;
    nextCallId: number;
    handle: InlineRunHandle | undefined;
    stopped: "wall" | "cancel" | undefined;
  }
  const runs = new Map<number, RunState>();
  /** A run's time slices, counted where placement reads them. */
  const countedSlices = (): ReturnType<typeof parts.timeSlices> => {
    const slices = parts.timeSlices(parts.sliceMs);
    return {
      started: slices.started,
      due: slices.due,
      pause: () => {
        Atomics.add(control, C.slices, 1);
        return slices.pause();
      },
    };
  };
  const post = (message: FromSharedWorker): void => port.postMessage(message);
  const stopWord = (slot: number): "wall" | "cancel" | undefined => {
    const word = Atomics.load(control, C.stops + slot);
    return word === C.stopWall ? "wall" : word === C.stopCancel ? "cancel" : undefined;
  };
  const failed = (runId: number, outcome: EngineOutcome): void =>
    post({ type: "done", runId, trapped: true, report: { outcome, logs: [], logBytes: 0, droppedLogs: 0, stats: { engine: "quickjs", wallMs: 0, cpuMs: 0, hostCalls: 0 } } });

  const run = async (runId: number, slotIndex: number, plan: SharedRunPlan): Promise<void> => {
    const state: RunState = { calls: new Map(), nextCallId: 0, handle: undefined, stopped: undefined };
    runs.set(runId, state);
    let acquired: Awaited<ReturnType<InlineInstancePool["acquire"]>>;
    try {
      acquired = await pool.acquire();
    } catch (error) {
      runs.delete(runId);
      failed(runId, { kind: "failure", message: `QuickJS could not start a sandbox: ${String(error)}` });
      return;
    }
    const { slot, sandbox } = acquired;
    // A sign of life beside the guests' interrupt checks: building instances is not being stuck.
    Atomics.add(control, C.beat, 1);
    const calls: HostCallPort = {
      call: (request, _context, events) =>
        new Promise<string>((resolve) => {
          const callId = state.nextCallId++;
          const live = events?.live;
          state.calls.set(callId, { resolve, live });
          post(parts.encodeCall(runId, callId, request.module, request.fn, request.argsText, request.listen === true, live !== undefined));
        }),
      // Alone on the thread with nothing posted to it unread, nothing else needs the thread while the
      // guest waits: sleep for the reply (SHARED_CONTROL) instead of unwinding to the event loop.
      callWaiting: (request, context) => {
        if (runs.size !== 1 || Atomics.load(control, C.posted) !== received) return calls.call(request, context);
        const callId = state.nextCallId++;
        Atomics.store(control, C.waitRun, runId);
        Atomics.store(control, C.waitCall, callId);
        Atomics.store(control, C.wait, C.waitWaiting);
        // A message posted since the test above: the main thread may have released us already, or
        // will find us WAITING after its post (either way it is there to be read now).
        if (Atomics.load(control, C.posted) === received) {
          post(parts.encodeCall(runId, callId, request.module, request.fn, request.argsText, request.listen === true, false));
          while (Atomics.load(control, C.wait) === C.waitWaiting) Atomics.wait(control, C.wait, C.waitWaiting);
          if (Atomics.load(control, C.wait) === C.waitReplied) {
            const text = reply.toString("utf16le", 0, Atomics.load(control, C.replyLength) * 2);
            Atomics.store(control, C.wait, C.waitIdle);
            return text;
          }
          // Released: the reply comes as a message, like any call's.
          Atomics.store(control, C.wait, C.waitIdle);
          return new Promise<string>((resolve) => state.calls.set(callId, { resolve, live: undefined }));
        }
        Atomics.store(control, C.wait, C.waitIdle);
        return new Promise<string>((resolve) => {
          state.calls.set(callId, { resolve, live: undefined });
          post(parts.encodeCall(runId, callId, request.module, request.fn, request.argsText, request.listen === true, false));
        });
      },
    };
    const runParts: AsyncifyRunParts = {
      engine: "quickjs",
      calls,
      logEntryBytes: parts.logEntryBytes,
      // The host calls' signal is the main thread's (it runs them); nobody reads these reasons here.
      runEnded: (code) => code,
      runEndedFor: (outcome) => outcome.kind,
      externalStop: () => stopWord(slotIndex),
      beat: () => void Atomics.add(control, C.beat, 1),
      // A computing guest lets this thread's other runs (their host-call replies, stops) go on between
      // its slices; the count tells placement that a guest here is CPU-bound.
      slices: countedSlices(),
      preemptionMeter: () => parts.preemption(fs),
    };
    const result = await parts.run(slot.instance, sandbox, plan, runParts, (handle) => {
      state.handle = handle;
      if (state.stopped !== undefined) handle.stop(state.stopped);
    });
    runs.delete(runId);
    const poisoned = result.poisoned && (slot.image === undefined || result.trapped || slot.instance.suspended);
    pool.release(slot, sandbox, poisoned, boot.retireAboveBytes);
    post(parts.encodeDone(runId, result.report, result.trapped) ?? { type: "done", runId, report: result.report, trapped: result.trapped });
  };

  /** A host call's reply or one of its live events (sent before its reply). */
  const answered = (message: string): void => {
    const answer = parts.decodeAnswer(message);
    if (answer === undefined) return;
    const calls = runs.get(answer.runId)?.calls;
    const call = calls?.get(answer.callId);
    if (calls === undefined || call === undefined) return;
    if (answer.type === "event") {
      call.live?.(answer.text);
      return;
    }
    calls.delete(answer.callId);
    call.resolve(answer.text);
  };

  port.on("message", (message: ToSharedWorker) => {
    received++;
    if (typeof message === "string") {
      // A run (encodeSharedRun) starts with "s"; a reply or event with "r" or "e".
      if (message.charCodeAt(0) !== 115) {
        answered(message);
        return;
      }
      const placed = parts.decodeRun(message);
      if (placed !== undefined) void run(placed.runId, placed.slot, placed.plan);
      return;
    }
    const state = runs.get(message.runId);
    if (state === undefined) return;
    state.stopped = message.reason;
    state.handle?.stop(message.reason);
  });

  // One instance with its sandbox ready before the first run (a failure to build one is a failure to boot).
  pool.warm().then(
    () => post({ type: "ready" }),
    (error: unknown) => post({ type: "boot-failed", message: String(error) }),
  );
}
