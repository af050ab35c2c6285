import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import type { QuickJsAssets } from "./quickjs-assets.js";
import { CONTROL_LAYOUT, MAILBOX_LAYOUT, newSpinBudget, SPIN_SLOTS, type DoneMessage, type HostCallMessage, type HostPortMessage, type RunMessage, type SpinBudget, type WorkerBoot, type WorkerMessage } from "./quickjs-protocol.js";
import { traceStartup } from "../../util/startup-trace.js";
import { quickJsWorkerOptions, takePrespawnedWorker } from "./quickjs-prespawn.js";

export interface QuickJsThreadOptions {
  /** Native stack of the worker thread; QuickJS's own stack limit must stay well below it. */
  readonly stackSizeMb: number;
  /** Shared with the engine's other workers; without it the worker never busy-waits for a reply. */
  readonly spin?: SpinBudget;
  /** See QuickJsEngineOptions.maxWasmMemoryBytes. */
  readonly maxWasmMemoryBytes: number;
  /** Nobody waits for this start (a replacement for the warm set): it must not keep the process alive. */
  readonly background?: boolean;
  /** Restore each run's sandbox from an image (QuickJsEngineOptions.sandboxSnapshots). Default true. */
  readonly snapshots?: boolean;
}

/** What the run in progress on a thread hears from it (see QuickJsThread.attach). */
export interface ThreadRunHandlers {
  /** A run's result (any run's: the handler checks the run id). */
  onDone(message: DoneMessage): void;
  /** A guest host call (any run's: the handler checks the run id). */
  onCall(message: HostCallMessage): void;
  /** The worker failed or exited; `detail` is the error or the exit code. */
  onCrash(detail?: unknown): void;
}

/** One worker thread holding one QuickJS wasm instance; it serves one run at a time. */
export class QuickJsThread {
  private exited = false;
  /** The run in progress, told of this thread's messages; undefined between runs. */
  private handlers: ThreadRunHandlers | undefined;
  private served = 0;
  /** Messages posted on the call port so far (see MAILBOX_LAYOUT.taken). */
  private posted = 0;
  private readonly mailHeader: Int32Array;
  private readonly mailData: Buffer;

  private constructor(
    readonly worker: Worker,
    /** Host side of the call port (guest host calls in, replies out). */
    readonly calls: MessagePort,
    private readonly control: Int32Array,
    mailbox: SharedArrayBuffer,
  ) {
    this.mailHeader = new Int32Array(mailbox, 0, MAILBOX_LAYOUT.headerBytes / Int32Array.BYTES_PER_ELEMENT);
    this.mailData = Buffer.from(mailbox, MAILBOX_LAYOUT.headerBytes, MAILBOX_LAYOUT.dataBytes);
    // Listeners for the thread's whole life, routed to the run in progress: adding and removing a
    // MessagePort's message listener for every run started and stopped the port each time (~15 µs of a
    // warm run's main-thread work, wave 32 probe). Between runs a message has nobody to go to: a stale
    // one is dropped, as the run-id checks did; an error is followed by the exit, which the pool sees.
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "done") this.handlers?.onDone(message);
    });
    worker.on("error", (error: Error) => this.handlers?.onCrash(error));
    calls.on("message", (message: HostCallMessage) => this.handlers?.onCall(message));
    worker.once("exit", (code: number) => {
      this.exited = true;
      calls.close();
      this.handlers?.onCrash(code);
    });
  }

  /** Starts a worker and resolves once it is ready; aborting `signal` ends a worker still starting. */
  static spawn(assets: QuickJsAssets, options: QuickJsThreadOptions, signal?: AbortSignal): Promise<QuickJsThread> {
    const control = new SharedArrayBuffer(CONTROL_LAYOUT.slots * Int32Array.BYTES_PER_ELEMENT);
    const mailbox = new SharedArrayBuffer(MAILBOX_LAYOUT.headerBytes + MAILBOX_LAYOUT.dataBytes);
    const { port1, port2 } = new MessageChannel();
    const boot: WorkerBoot = {
      corePath: assets.corePath,
      variantPath: assets.variantPath,
      emscriptenPath: assets.emscriptenPath,
      wasmModule: assets.wasmModule,
      maxWasmMemoryBytes: options.maxWasmMemoryBytes,
      control,
      layout: CONTROL_LAYOUT,
      mailbox,
      mailboxLayout: MAILBOX_LAYOUT,
      port: port2,
      sources: assets.sources,
      piecesAhead: assets.piecesAhead,
      spin: options.spin ?? newSpinBudget(0),
      spinSlots: SPIN_SLOTS,
      memoryLayout: options.snapshots === false ? undefined : assets.memoryLayout,
    };
    // A thread the CLI started before it had loaded anything (quickjs-prespawn.ts) is handed its program.
    const prespawned = assets.workerProgram === undefined ? undefined : takePrespawnedWorker(options.stackSizeMb);
    traceStartup(prespawned === undefined ? "thread: spawn" : "thread: prespawned one taken");
    const worker = prespawned ?? new Worker(assets.workerSource, { ...quickJsWorkerOptions(options.stackSizeMb), workerData: boot, transferList: [port2] });
    if (prespawned !== undefined) {
      // Started unreferenced, so that an unused one does not keep the process alive; from here it is like any other.
      prespawned.ref();
      prespawned.postMessage({ program: assets.workerProgram, boot }, [port2]);
    }
    return new Promise((resolve, reject) => {
      const onMessage = (message: WorkerMessage): void => {
        cleanup();
        traceStartup("thread: ready");
        if (message.type === "ready") resolve(new QuickJsThread(worker, port1, new Int32Array(control), mailbox));
        else {
          void worker.terminate();
          port1.close();
          reject(new Error(message.type === "boot-failed" ? message.message : "QuickJS worker sent an unexpected message"));
        }
      };
      const onError = (error: Error): void => {
        cleanup();
        port1.close();
        reject(error);
      };
      const onExit = (code: number): void => onError(new Error(`QuickJS worker exited during start-up (code ${code})`));
      const onAbort = (): void => {
        void worker.terminate();
        onError(new Error("The QuickJS worker was no longer needed"));
      };
      const cleanup = (): void => {
        port1.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        signal?.removeEventListener("abort", onAbort);
      };
      // The worker says it is ready on the call port (see quickjs-worker.ts).
      port1.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      // Nobody waits for a background start (e.g. a `mcpvm run` that has its result exits without
      // waiting for the warm set's replacement), so it must not keep the process alive.
      if (options.background === true) {
        worker.unref();
        port1.unref();
      }
      if (signal?.aborted === true) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Serving a run: the thread keeps the process alive. */
  hold(): void {
    this.worker.ref();
    this.calls.ref();
  }

  /** Idle: the thread does not keep the process alive on its own. */
  park(): void {
    this.worker.unref();
    this.calls.unref();
  }

  /** The run starting now hears this thread's results, host calls and crashes until `detach`. */
  attach(handlers: ThreadRunHandlers): void {
    this.handlers = handlers;
  }

  /** The run ended: nothing more goes to its handlers. */
  detach(handlers: ThreadRunHandlers): void {
    if (this.handlers === handlers) this.handlers = undefined;
  }

  /** Runs started on this thread so far. */
  get runs(): number {
    return this.served;
  }

  /** How far the worker's next sandbox is (CONTROL_LAYOUT.readyNot … readyIdle). */
  get readiness(): number {
    return Atomics.load(this.control, CONTROL_LAYOUT.ready);
  }

  /** The worker restores its sandboxes from an image (quickjs-snapshot.ts) instead of building them. */
  get imaged(): boolean {
    return Atomics.load(this.control, CONTROL_LAYOUT.image) === 1;
  }

  startRun(message: RunMessage): void {
    this.served++;
    Atomics.store(this.control, CONTROL_LAYOUT.stop, CONTROL_LAYOUT.none);
    Atomics.store(this.control, CONTROL_LAYOUT.ready, CONTROL_LAYOUT.readyNot);
    Atomics.add(this.control, CONTROL_LAYOUT.posted, 1);
    this.worker.postMessage(message);
  }

  /** A call's reply, or one of its events (sent before its reply). */
  reply(message: HostPortMessage): void {
    if (this.exited) return;
    if (!this.deliver(message)) {
      this.posted++;
      this.calls.postMessage(message);
    }
    this.wake();
  }

  /** Writes the message into the shared mailbox if it is free and nothing older waits on the port. */
  private deliver(message: HostPortMessage): boolean {
    const header = this.mailHeader;
    const M = MAILBOX_LAYOUT;
    if (Atomics.load(header, M.full) !== 0 || Atomics.load(header, M.taken) !== this.posted) return false;
    const { text } = message;
    // Most replies are short: 3 bytes per UTF-16 unit bounds their UTF-8 size without measuring.
    if (text.length * 3 > M.dataBytes && Buffer.byteLength(text, "utf8") > M.dataBytes) return false;
    const bytes = this.mailData.write(text, 0, "utf8");
    header[M.kind] = message.type === "reply" ? M.reply : M.event;
    header[M.runId] = message.runId;
    header[M.callId] = message.callId;
    header[M.bytes] = bytes;
    // The store publishes the header and text above to the worker (Atomics are sequentially consistent).
    Atomics.store(header, M.full, 1);
    return true;
  }

  /** Asks the running guest to stop at its next interrupt check or host-call wait. */
  requestStop(reason: typeof CONTROL_LAYOUT.cancelled | typeof CONTROL_LAYOUT.wall): void {
    Atomics.store(this.control, CONTROL_LAYOUT.stop, reason);
    this.wake();
  }

  async terminate(): Promise<void> {
    if (this.exited) return;
    await this.worker.terminate();
  }

  private wake(): void {
    Atomics.add(this.control, CONTROL_LAYOUT.wake, 1);
    Atomics.notify(this.control, CONTROL_LAYOUT.wake);
  }
}
