import { Worker } from "node:worker_threads";
import { quickJsWorkerOptions } from "./quickjs-prespawn.js";
import type { SharedWorkerAssets } from "./quickjs-shared-assets.js";
import { SHARED_CONTROL, type FromSharedWorker, type SharedCallMessage, type SharedDoneMessage, type SharedRunPlan, type SharedWorkerBoot, type ToSharedWorker } from "./quickjs-shared-protocol.js";
import { SharedWaitedCall } from "./quickjs-shared-waited.js";
import { decodeSharedCall, decodeSharedDone, encodeSharedAnswer, encodeSharedRun } from "./quickjs-shared-wire.js";

export interface SharedThreadOptions {
  /** Native stack of the worker thread; QuickJS's own stack limit must stay well below it. */
  readonly stackSizeMb: number;
  readonly maxWasmMemoryBytes: number;
  readonly images: boolean;
  readonly idleInstances: number;
  readonly retireAboveBytes: number;
}

/** What a run placed on a thread hears from it. */
export interface SharedRunHandlers {
  onCall(message: SharedCallMessage): void;
  onDone(message: SharedDoneMessage): void;
  /** The thread ended (killed, crashed, out of memory) before the run did. */
  onLost(reason: string): void;
}

interface PlacedRun {
  readonly slot: number;
  readonly handlers: SharedRunHandlers;
  /** Host calls posted by the run and not answered yet: the run is waiting, not computing. */
  outstanding: number;
}

/**
 * One worker thread serving several runs at once (quickjs-shared-worker.ts): each run suspended in a
 * host call holds only its own asyncify instance, and the thread's event loop serves the others.
 * This side routes each message to its run and knows which runs are computing (no host call in
 * flight), so the pool places a new run only where nothing computes.
 */
export class SharedQuickJsThread {
  private readonly placed = new Map<number, PlacedRun>();
  private readonly freeSlots: number[] = [];
  private exited = false;
  /** terminate() was called: the thread takes no more runs. */
  private closing = false;
  /** The beat last seen moving, and when (see responsive). */
  private beatSeen = 0;
  private beatSeenAt = 0;
  /** Since when some run on the thread has been computing without a pause (undefined: quiet now). */
  private busyFrom: number | undefined;
  /** The slice count when busyFrom was set (see slicesWhileBusy). */
  private slicesAtBusy = 0;
  private lostReason = "the QuickJS worker stopped";
  /** The waited call's state and reply (SHARED_CONTROL): for tests and diagnostics, its count of replies written. */
  readonly waited: SharedWaitedCall;
  /** Told when a run ends, a host call starts, or the thread exits (the pool places waiting runs then). */
  onChange: (() => void) | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly control: Int32Array,
    reply: SharedArrayBuffer,
  ) {
    this.waited = new SharedWaitedCall(control, reply);
    for (let slot = SHARED_CONTROL.runSlots - 1; slot >= 0; slot--) this.freeSlots.push(slot);
    worker.on("message", (message: FromSharedWorker) => this.receive(message));
    worker.on("error", (error: Error) => {
      this.lostReason = `the QuickJS worker failed (${error.message})`;
    });
    worker.once("exit", (code: number) => {
      this.exited = true;
      this.waited.close();
      const reason = this.placed.size > 0 && this.lostReason === "the QuickJS worker stopped" ? `the QuickJS worker stopped (exit code ${code})` : this.lostReason;
      const lost = [...this.placed.values()];
      this.placed.clear();
      for (const run of lost) run.handlers.onLost(reason);
      this.onChange?.();
    });
    // An idle thread must not keep the process alive (a placed run refs it; a starting one is held,
    // since someone awaits it). After the listeners: adding a message listener refs the port again.
    worker.unref();
  }

  /** Starts a worker and resolves once it has an instance with a sandbox ready; aborting `signal` ends it. */
  static spawn(assets: SharedWorkerAssets, options: SharedThreadOptions, signal?: AbortSignal): Promise<SharedQuickJsThread> {
    const control = new SharedArrayBuffer((SHARED_CONTROL.stops + SHARED_CONTROL.runSlots) * Int32Array.BYTES_PER_ELEMENT);
    const reply = new SharedArrayBuffer(SHARED_CONTROL.replyUnits * 2);
    const boot: SharedWorkerBoot = {
      corePath: assets.corePath,
      variantPath: assets.variantPath,
      emscriptenPath: assets.emscriptenPath,
      wasmModule: assets.wasmModule,
      memoryLayout: options.images ? assets.memoryLayout : undefined,
      maxWasmMemoryBytes: options.maxWasmMemoryBytes,
      idleInstances: options.idleInstances,
      retireAboveBytes: options.retireAboveBytes,
      images: options.images,
      control,
      reply,
      sources: assets.sources,
      piecesAhead: assets.piecesAhead,
    };
    // The same options as every QuickJS worker (guest heaps in wasm memories, silenced streams, raw descriptors closed at exit).
    const worker = new Worker(assets.workerSource, { ...quickJsWorkerOptions(options.stackSizeMb), workerData: boot });
    return new Promise((resolve, reject) => {
      const onMessage = (message: FromSharedWorker): void => {
        cleanup();
        if (typeof message !== "string" && message.type === "ready") resolve(new SharedQuickJsThread(worker, new Int32Array(control), reply));
        else {
          void worker.terminate();
          reject(new Error(typeof message !== "string" && message.type === "boot-failed" ? message.message : "The QuickJS worker sent an unexpected message"));
        }
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number): void => onError(new Error(`The QuickJS worker exited during start-up (code ${code})`));
      const onAbort = (): void => {
        void worker.terminate();
        onError(new Error("The QuickJS worker was no longer needed"));
      };
      const cleanup = (): void => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        signal?.removeEventListener("abort", onAbort);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      if (signal?.aborted === true) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Runs placed on this thread now. */
  get runs(): number {
    return this.placed.size;
  }

  /** Runs placed here that are not waiting for a host call (computing, or about to). */
  get computing(): number {
    let count = 0;
    for (const run of this.placed.values()) if (run.outstanding === 0) count++;
    return count;
  }

  /** How long the thread has been computing without a quiet moment (0 when quiet). */
  busyForMs(now = performance.now()): number {
    return this.busyFrom === undefined ? 0 : now - this.busyFrom;
  }

  /** Whether another run fits (a stop word is free). */
  get hasRoom(): boolean {
    return !this.exited && !this.closing && this.freeSlots.length > 0;
  }

  /**
   * Whether a guest computing here has reached an interrupt check within `stallMs` (it yields between
   * time slices); false when one is stuck in a long native call, which holds every run on the thread.
   */
  responsive(stallMs: number, now = performance.now()): boolean {
    const beat = this.beat;
    if (beat !== this.beatSeen) {
      this.beatSeen = beat;
      this.beatSeenAt = now;
    }
    return now - this.beatSeenAt < stallMs;
  }

  /** Bumped at every interrupt check of a guest on this thread (see SharedRunHandlers and the run's kill check). */
  get beat(): number {
    return Atomics.load(this.control, SHARED_CONTROL.beat);
  }

  /** Bumped each time a guest on this thread has computed a whole time slice (it is CPU-bound). */
  get slices(): number {
    return Atomics.load(this.control, SHARED_CONTROL.slices);
  }

  /** Whole time slices its guests computed since the thread was last quiet (0 while quiet). */
  get slicesWhileBusy(): number {
    return this.busyFrom === undefined ? 0 : this.slices - this.slicesAtBusy;
  }

  /** Places a run; the caller checked `hasRoom`. */
  start(runId: number, plan: SharedRunPlan, handlers: SharedRunHandlers): void {
    const slot = this.freeSlots.pop();
    if (slot === undefined || this.exited) throw new Error("The QuickJS worker has no room for another run");
    Atomics.store(this.control, SHARED_CONTROL.stops + slot, 0);
    this.placed.set(runId, { slot, handlers, outstanding: 0 });
    if (this.busyFrom === undefined) {
      this.busyFrom = performance.now();
      this.slicesAtBusy = this.slices;
      this.beatSeen = this.beat;
      this.beatSeenAt = this.busyFrom;
    }
    if (this.placed.size === 1) this.worker.ref();
    this.post(encodeSharedRun(runId, slot, plan));
  }

  /** A host call's reply, or one of its live events (sent before its reply). */
  answer(type: "reply" | "event", runId: number, callId: number, text: string): void {
    const run = this.placed.get(runId);
    if (run === undefined) return;
    if (type === "reply" && --run.outstanding === 0 && this.busyFrom === undefined) {
      this.busyFrom = performance.now();
      this.slicesAtBusy = this.slices;
    }
    if (type === "reply" && this.waited.answer(runId, callId, text)) return;
    this.post(encodeSharedAnswer(type, runId, callId, text));
  }

  /** Asks a run to stop: a message, and its stop word for a thread busy with another guest. */
  stop(runId: number, reason: "wall" | "cancel"): void {
    const run = this.placed.get(runId);
    if (run === undefined) return;
    Atomics.store(this.control, SHARED_CONTROL.stops + run.slot, reason === "wall" ? SHARED_CONTROL.stopWall : SHARED_CONTROL.stopCancel);
    this.post({ type: "stop", runId, reason });
  }

  /** Ends the thread; every run still on it is lost (`reason` says why). */
  async terminate(reason = "the QuickJS worker was terminated"): Promise<void> {
    if (this.exited) return;
    this.closing = true;
    this.lostReason = reason;
    // A worker asleep in a waited call is woken first (terminating a thread in Atomics.wait works, but
    // nothing should depend on it).
    this.waited.beforePost();
    await this.worker.terminate();
  }

  private noteQuiet(): void {
    if (this.computing === 0) this.busyFrom = undefined;
  }

  private post(message: ToSharedWorker): void {
    if (this.exited) return;
    this.waited.beforePost();
    this.worker.postMessage(message);
  }

  private receive(message: FromSharedWorker): void {
    if (typeof message === "string") {
      // A run's end in its string form (encodeSharedDone) starts with "d"; a host call with a digit.
      if (message.charCodeAt(0) !== 100) {
        const call = decodeSharedCall(message);
        if (call !== undefined) this.call(call);
        return;
      }
      const done = decodeSharedDone(message);
      if (done !== undefined) this.done(done);
      return;
    }
    if (message.type === "done") this.done(message);
  }

  private done(message: SharedDoneMessage): void {
    const run = this.placed.get(message.runId);
    if (run === undefined) return;
    this.placed.delete(message.runId);
    this.freeSlots.push(run.slot);
    this.noteQuiet();
    if (this.placed.size === 0) this.worker.unref();
    run.handlers.onDone(message);
    this.onChange?.();
  }

  private call(message: SharedCallMessage): void {
    const run = this.placed.get(message.runId);
    if (run === undefined) return;
    run.outstanding++;
    this.waited.watch();
    run.handlers.onCall(message);
    if (run.outstanding === 1) {
      this.noteQuiet();
      this.onChange?.();
    }
  }
}
