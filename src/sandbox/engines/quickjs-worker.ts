import type * as QuickJs from "quickjs-emscripten-core";
import type * as WorkerThreads from "node:worker_threads";
import type { executeQuickJsRun, WorkerChannel } from "./quickjs-execute.js";
import type { GrowableMemory, meterWasmHeap } from "./quickjs-heap.js";
import type { createPreemptionMeter, MeterFs } from "./preemption-meter.js";
import type { DoneMessage, HostPortMessage, RunMessage, WorkerBoot } from "./quickjs-protocol.js";
import type { compileQuickJsPiece, PreparedSandbox, prepareQuickJsSandbox, releaseQuickJsSandbox } from "./quickjs-sandbox.js";
import type { SandboxSnapshot, snapshotQuickJsSandbox } from "./quickjs-snapshot.js";

/** The worker-side functions, passed in by source text because an eval worker cannot import them. */
export interface WorkerParts {
  readonly prepare: typeof prepareQuickJsSandbox;
  readonly execute: typeof executeQuickJsRun;
  readonly release: typeof releaseQuickJsSandbox;
  readonly compilePiece: typeof compileQuickJsPiece;
  readonly meterHeap: typeof meterWasmHeap;
  readonly snapshot: typeof snapshotQuickJsSandbox;
  readonly preemption: typeof createPreemptionMeter;
}

/**
 * The program of a QuickJS worker thread. It is started as `(${source})(require, parts, boot)` in an
 * eval worker (see quickjs-assets.ts), so this function must not reference anything outside its own
 * body (imports above are types only); modules come from the `load` argument, data from `boot` (the
 * workerData, or the message a prespawned worker is handed: quickjs-prespawn.ts).
 *
 * Every run gets a fresh QuickJS runtime and context (no state survives a run). The next run's
 * sandbox is built right after a run's result has been posted, and while no run waits the bootstrap
 * pieces most runs use are compiled into it, so a run arriving at an idle worker finds its runtime,
 * context and compiled bootstrap ready and pays only for its own code. With a memory layout in its
 * boot data, the worker then (still only while no run waits) compiles the other pieces too and keeps
 * an image of its wasm memory with that sandbox (quickjs-snapshot.ts); from then on, after each run's
 * result has been posted, it restores the image instead of building: the next run finds the same
 * fresh runtime and context in a memory copy's time. Taking the image when idle after the first run
 * rather than at boot keeps it off the first run's path (compiling in a new thread is slow until V8
 * warms up) and out of one-shot processes.
 */
export function quickJsWorkerMain(load: (id: string) => unknown, parts: WorkerParts, boot: WorkerBoot): void {
  // Nothing this thread writes is read by anyone (see QuickJsThread.spawn): drop it here rather than
  // let it pile up in the host's unread stream.
  process.stdout.write = () => true;
  process.stderr.write = () => true;
  // MCPVM_TRACE_STARTUP=1 (src/util/startup-trace.ts): the worker's steps, straight to the process's stderr.
  const traceFs = process.env.MCPVM_TRACE_STARTUP === "1" ? (load("node:fs") as { writeSync(fd: number, text: string): void }) : undefined;
  const mark = (step: string): void => traceFs?.writeSync(2, `[startup] ${(process.uptime() * 1000).toFixed(1).padStart(7)} ms  worker: ${step}\n`);
  mark("program started");
  const threads = load("node:worker_threads") as typeof WorkerThreads;
  const parentPort = threads.parentPort as WorkerThreads.MessagePort;
  const core = load(boot.corePath) as typeof QuickJs;
  const published = (load(boot.variantPath) as { default: QuickJs.QuickJSSyncVariant }).default;
  const variant: QuickJs.QuickJSSyncVariant = {
    type: "sync",
    importFFI: published.importFFI,
    importModuleLoader: () => Promise.resolve(load(boot.emscriptenPath) as Awaited<ReturnType<QuickJs.QuickJSSyncVariant["importModuleLoader"]>>),
  };

  // The glue imports its memory; ours has a maximum, so a runaway guest cannot take gigabytes.
  const PAGE = 65536;
  const Memory = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => GrowableMemory } }).WebAssembly.Memory;
  const wasmMemory = new Memory({ initial: 256, maximum: Math.max(512, Math.floor(boot.maxWasmMemoryBytes / PAGE)) });
  // The meter instantiates the compiled module itself (so no `wasmModule` option, which would replace its hook).
  const heap = parts.meterHeap(wasmMemory, boot.wasmModule);
  type VariantOptions = Parameters<typeof core.newVariant>[1];
  core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmMemory, emscriptenModule: { instantiateWasm: heap.instantiateWasm } } as VariantOptions)).then(
    (module) => {
      mark("instantiated");
      const M = boot.mailboxLayout;
      const mailHeader = new Int32Array(boot.mailbox, 0, M.headerBytes / 4);
      const mailData = Buffer.from(boot.mailbox, M.headerBytes, M.dataBytes);
      const channel: WorkerChannel = {
        port: boot.port,
        control: new Int32Array(boot.control),
        layout: boot.layout,
        // The mailbox first: whatever waits on the port is newer (see MAILBOX_LAYOUT).
        take: () => {
          if (Atomics.load(mailHeader, M.full) !== 0) {
            const message: HostPortMessage = {
              type: mailHeader[M.kind] === M.reply ? "reply" : "event",
              runId: mailHeader[M.runId] ?? 0,
              callId: mailHeader[M.callId] ?? 0,
              text: mailData.toString("utf8", 0, mailHeader[M.bytes]),
            };
            Atomics.store(mailHeader, M.full, 0);
            return message;
          }
          const received = threads.receiveMessageOnPort(boot.port);
          if (received === undefined) return undefined;
          Atomics.add(mailHeader, M.taken, 1);
          return received.message as HostPortMessage;
        },
        spin: { counters: new Int32Array(boot.spin.counters), max: boot.spin.max, slots: boot.spinSlots },
        wasmMemoryBytes: heap.bytes,
        limitHeadroom: heap.limitHeadroom,
        overBudget: heap.overBudget,
        paceChecks: heap.paceChecks,
        preemptionMeter: () => parts.preemption(load("node:fs") as MeterFs),
      };
      const control = channel.control;
      let runsReceived = 0;
      // Built now so that a failure to build one is a failure to boot, reported as such.
      let next: PreparedSandbox | undefined = parts.prepare(module, boot.sources);
      mark("sandbox built");
      let image: SandboxSnapshot<PreparedSandbox> | undefined;
      /** The image could not be taken here (a build or library not understood): sandboxes are built. */
      let imageRefused = boot.memoryLayout === undefined;
      /**
       * Compiles the bootstrap pieces most runs use into the sandbox built ahead, one at a time, as
       * long as no run is waiting (CONTROL_LAYOUT.posted): a waiting run takes the sandbox as it is
       * and compiles what it uses itself.
       */
      const L = boot.layout;
      const compileAhead = (): void => {
        if (next === undefined) return;
        Atomics.store(control, L.ready, L.readyBuilt);
        for (const name of boot.piecesAhead) {
          if (next === undefined || Atomics.load(control, L.posted) !== runsReceived) return;
          try {
            parts.compilePiece(next, boot.sources, name);
          } catch {
            // The next run builds a sandbox of its own, and reports a failure to build one.
            const broken = next;
            next = undefined;
            try {
              parts.release(broken);
            } catch {
              process.exit(1);
            }
          }
        }
        if (next !== undefined && Atomics.load(control, L.posted) === runsReceived) Atomics.store(control, L.ready, L.readyIdle);
        takeImage();
      };
      /**
       * Turns the idle sandbox built ahead (its usual pieces compiled) into the worker's image: the
       * other pieces compiled too, one at a time while no run waits, then the memory copied. A run
       * that arrives first takes the sandbox as it is, and the next idle time tries again.
       */
      const takeImage = (): void => {
        const layout = boot.memoryLayout;
        // Not before the worker's first run: a one-shot process (`mcpvm run`) never needs an image,
        // and on two busy cores the work would compete with the CLI starting up.
        if (runsReceived === 0 || image !== undefined || imageRefused || layout === undefined || next === undefined) return;
        if (Atomics.load(control, L.ready) !== L.readyIdle) return;
        const idle = (): boolean => Atomics.load(control, L.posted) === runsReceived;
        const sandbox = next;
        try {
          for (const name of Object.keys(boot.sources.pieces)) {
            if (boot.piecesAhead.includes(name)) continue;
            if (!idle()) return;
            parts.compilePiece(sandbox, boot.sources, name);
          }
          if (!idle()) return;
          image = parts.snapshot(sandbox, wasmMemory, layout);
        } catch {
          image = undefined;
        }
        if (image !== undefined) {
          // The sandbox is the image's now: restored after each run, never freed.
          next = undefined;
          Atomics.store(control, L.image, 1);
          return;
        }
        // Not understood here: this worker builds its sandboxes as before, starting with a clean one
        // (taking the image may have changed this one, e.g. its Math.random state).
        imageRefused = true;
        next = undefined;
        try {
          parts.release(sandbox);
          next = parts.prepare(module, boot.sources);
        } catch {
          process.exit(1);
        }
        compileAhead();
      };
      parentPort.on("message", (run: RunMessage) => {
        runsReceived++;
        Atomics.store(control, L.ready, L.readyNot);
        if (image !== undefined) {
          const done = parts.execute(image.sandbox, run, channel);
          // A run stopped mid-flight (a limit, a cancel) leaves nothing the image does not undo: the
          // worker stays. After a trap it is retired by the host; the image is restored anyway.
          parentPort.postMessage(done.poisoned && !done.trapped ? { ...done, poisoned: false } : done);
          try {
            image.restore();
          } catch {
            // The instance can no longer be put back: end this thread; the pool replaces it.
            process.exit(1);
          }
          Atomics.store(control, L.ready, L.readyIdle);
          return;
        }
        let sandbox: PreparedSandbox;
        try {
          sandbox = next ?? parts.prepare(module, boot.sources);
        } catch (error) {
          parentPort.postMessage(unusable(run, error));
          return;
        }
        next = undefined;
        parentPort.postMessage(parts.execute(sandbox, run, channel));
        // Off the run's critical path: its result is already on the way to the host.
        try {
          parts.release(sandbox);
        } catch {
          // The instance cannot free its own memory: end this thread; the pool replaces it.
          process.exit(1);
        }
        try {
          next = parts.prepare(module, boot.sources);
        } catch {
          // The next run retries and reports the failure itself.
          next = undefined;
        }
        compileAhead();
      });
      // On the call port, which the host can unref while a background start is in progress (a
      // listener on the worker's own port would keep the process alive).
      boot.port.postMessage({ type: "ready" });
      compileAhead();
    },
    (error: unknown) => boot.port.postMessage({ type: "boot-failed", message: String(error) }),
  );
  // The run's CPU meter reads performance.now(), whose first use loads node:perf_hooks: loaded now,
  // while the wasm instantiates, rather than in the first run's time.
  void performance.now();

  /** The result for a run this worker could not even start: the thread must be replaced. */
  function unusable(run: RunMessage, error: unknown): DoneMessage {
    return {
      type: "done",
      runId: run.runId,
      outcome: { kind: "failure", message: `QuickJS could not create a sandbox: ${String(error)}` },
      logs: [],
      logBytes: 0,
      droppedLogs: 0,
      cpuMs: 0,
      hostCalls: 0,
      poisoned: true,
      trapped: true,
      wasmMemoryBytes: 0,
    };
  }
}
