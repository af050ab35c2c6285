import { writeSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { sep } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { signalChildGroups } from "../util/child-groups.js";

/**
 * How long past a step's deadline the main thread may go without serving its event loop before the
 * watchdog stops it. A plugin that is only slow asynchronously is given up on by its deadline timer
 * (load-deadline.ts) at the deadline; this catches the one whose synchronous code keeps that timer
 * (and the SIGTERM handler, and everything else) from ever running.
 */
const BLOCKED_GRACE_MS = 1_000;
/** How often the main thread says it is alive while a user plugin loads. */
const BEAT_MS = 100;
/** A stop signal finds the main thread blocked when its heartbeat is this old; it then stops it. */
const SIGNAL_GRACE_MS = 300;
/** When even V8's interrupt is not served (the thread is stuck in native code): the worker's last resort. */
const KILL_AFTER_MS = 5_000;

/** Exit code of PLUGIN_LOAD_FAILED (docs/USAGE.md, Exit codes); plugin-system does not import the CLI's table. */
const PLUGIN_LOAD_EXIT_CODE = 3;

// Int32 cells shared with the worker, times in ms since `start`: the current step's deadline (0: none), the
// main thread's last heartbeat, and why the worker stopped the main thread: 1 for the deadline, else the
// number of the stop signal that came while the thread was held.
const DEADLINE = 0;
const BEAT = 1;
const STOPPED = 2;

/** Where the worker's probe leaves the held thread's stack (read once by `end`, the process then exits). */
const HELD_STACK = "mcpvm.loadWatchdog.heldStack";
const STACK_PROBE = `(() => { const limit = Error.stackTraceLimit; Error.stackTraceLimit = 200; try { globalThis[Symbol.for(${JSON.stringify(HELD_STACK)})] = new Error().stack; } finally { Error.stackTraceLimit = limit; } })()`;

/** One plugin's step under watch: `code` is the folder its code runs from (a user plugin's private copy). */
export interface WatchedStep {
  readonly plugin: string;
  readonly step: string;
  readonly ms: number;
  readonly code?: string;
}

interface ArmedStep extends WatchedStep {
  /** ms since `start` */
  readonly deadline: number;
}

/**
 * Runs in the worker. `Runtime.terminateExecution` over an inspector session is served through a V8
 * interrupt, so it reaches a thread stuck in `for(;;){}`; the main thread's event loop then runs again and
 * its heartbeat sees STOPPED (see `beat`). Exiting from inside the interrupt (Runtime.evaluate
 * "process.exit(3)") also works but makes Node print "Waiting for the debugger to disconnect...", since
 * this session is still connected; so the main thread ends the worker first and then exits.
 */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const cells = new Int32Array(workerData.buffer);
let stopping = false;
function stopMainThread(reason) {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  Atomics.store(cells, ${STOPPED}, reason);
  const { Session } = require("node:inspector");
  const session = new Session();
  session.connectToMainThread();
  // Served in the same interrupt, on top of the held frames: the stack names the file that holds the
  // thread, so the main thread can tell which of the plugins loading side by side to name.
  session.post("Runtime.evaluate", { expression: ${JSON.stringify(STACK_PROBE)} });
  session.post("Runtime.terminateExecution");
  setTimeout(() => {
    writeSync(2, workerData.lastWords);
    process.kill(process.pid, "SIGKILL");
  }, ${KILL_AFTER_MS});
}
const timer = setInterval(() => {
  const now = Date.now() - workerData.start;
  const deadline = Atomics.load(cells, ${DEADLINE});
  if (deadline === 0 || now < deadline || now - Atomics.load(cells, ${BEAT}) < ${BLOCKED_GRACE_MS}) return;
  stopMainThread(1);
}, ${BEAT_MS});
// The main thread's signal handlers cannot run while plugin code holds it; this one can. Node offers no
// process.on("SIGTERM") in a worker, so the binding process.on uses is taken directly; without it (a
// future Node) a stop signal waits for the deadline above.
try {
  process.noDeprecation = true;
  const { Signal } = process.binding("signal_wrap");
  for (const signum of workerData.signals) {
    const handle = new Signal();
    handle.onsignal = () => {
      const now = Date.now() - workerData.start;
      if (Atomics.load(cells, ${DEADLINE}) !== 0 && now - Atomics.load(cells, ${BEAT}) >= ${SIGNAL_GRACE_MS}) stopMainThread(signum);
    };
    handle.start(signum);
    handle.unref();
  }
} catch {}
require("node:worker_threads").parentPort.postMessage("ready");
`;

/**
 * Guards plugin code that runs in mcpvm's own thread: a plugin whose entry or createHostFunctions loops
 * synchronously used to hang the process for good, deaf to SIGTERM (signal handlers are JavaScript too).
 * Started only while user plugins load, stopped right after (a native plugin is mcpvm's own code).
 */
export class LoadWatchdog {
  private readonly cells = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  private readonly start = Date.now();
  private readonly worker: Worker;
  private readonly beat: NodeJS.Timeout;
  /** The steps in flight, oldest first: plugins load side by side (manager.ts). */
  private readonly armed = new Set<ArmedStep>();
  private ending = false;
  /**
   * Settles once the worker watches (its signal handlers installed), or could not start. Plugin code is
   * run only after it: a plugin that loops at once would otherwise hold the thread before anyone watches,
   * and a SIGTERM in that window went unanswered until the deadline (a worker takes a second or more to
   * start on a loaded machine).
   */
  readonly ready: Promise<void>;

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { buffer: this.cells.buffer, start: this.start, signals: [osConstants.signals.SIGTERM, osConstants.signals.SIGINT], lastWords: "mcpvm: a plugin kept mcpvm's thread busy past its load deadline and could not be stopped; mcpvm was killed. `mcpvm plugin list` shows the enabled plugins; stop loading one with `mcpvm plugin disable <name>`.\n" },
      stdout: false,
      stderr: false,
    });
    this.ready = new Promise<void>((resolve) => {
      const settle = (): void => {
        this.worker.unref();
        resolve();
      };
      this.worker.once("message", settle);
      this.worker.once("error", settle);
      this.worker.once("exit", settle);
    });
    this.beat = setInterval(() => this.check(), BEAT_MS);
    this.beat.unref();
    this.check();
  }

  /** From now until `disarm(step)`, `step` runs; it may hold the thread until `step.ms` from now. Returns the token for disarm. */
  arm(step: WatchedStep): object {
    const armed: ArmedStep = { ...step, deadline: Math.max(1, Date.now() - this.start + step.ms) };
    this.armed.add(armed);
    this.publishDeadline();
    return armed;
  }

  /** Without a token: every step (the watchdog is stopping). */
  disarm(token?: object): void {
    if (token === undefined) this.armed.clear();
    else this.armed.delete(token as ArmedStep);
    this.publishDeadline();
  }

  /**
   * The latest deadline in flight: a thread held past it is held past every step's own deadline, so no
   * plugin is stopped before its time, whichever of those side by side holds it.
   */
  private publishDeadline(): void {
    let latest = 0;
    for (const step of this.armed) latest = Math.max(latest, step.deadline);
    Atomics.store(this.cells, DEADLINE, latest);
  }

  /**
   * The step whose code the probe found on the held stack; else the only one in flight; else undefined
   * (the message then names none rather than maybe the wrong one).
   */
  private heldStep(): ArmedStep | undefined {
    const key = Symbol.for(HELD_STACK);
    const stack = (globalThis as Record<symbol, unknown>)[key];
    const steps = [...this.armed];
    if (typeof stack === "string") {
      const frames = stack.split("\n").slice(1);
      const held = steps.filter((step) => step.code !== undefined && frames.some((frame) => frame.includes(pathToFileURL(step.code as string).href + "/") || frame.includes(`${step.code}${sep}`)));
      if (held.length === 1) return held[0];
    }
    return steps.length === 1 ? steps[0] : undefined;
  }

  /**
   * True when the worker stopped the main thread: the process is ending (exit 3) and the caller must not
   * go on (a deadline timer that fires right after the stop would otherwise load the next plugin).
   */
  check(): boolean {
    const reason = Atomics.load(this.cells, STOPPED);
    if (reason !== 0) {
      this.end(reason);
      return true;
    }
    Atomics.store(this.cells, BEAT, Date.now() - this.start);
    return false;
  }

  async stop(): Promise<void> {
    clearInterval(this.beat);
    this.disarm();
    if (!this.ending) await this.worker.terminate();
  }

  private end(reason: number): void {
    if (this.ending) return;
    this.ending = true;
    clearInterval(this.beat);
    const step = this.heldStep();
    const what = step === undefined ? (this.armed.size > 1 ? `one of the plugins loading (${[...new Set([...this.armed].map((s) => s.plugin))].join(", ")})` : "a plugin") : `plugin ${step.plugin}: ${step.step}`;
    const disable = step === undefined ? "mcpvm plugin disable <name>" : `mcpvm plugin disable ${step.plugin}`;
    const signal = Object.entries(osConstants.signals).find(([, number]) => number === reason)?.[0];
    let code = PLUGIN_LOAD_EXIT_CODE;
    // Written synchronously: the process ends next, and stderr may be a pipe.
    if (reason === 1 || signal === undefined) {
      const seconds = step === undefined ? "" : ` for over ${step.ms >= 1000 ? `${Math.round(step.ms / 100) / 10} s` : `${step.ms} ms`}`;
      writeSync(2, `mcpvm: ${what} kept mcpvm's thread busy${seconds} (a synchronous loop or long computation) and was stopped; mcpvm exits (code ${PLUGIN_LOAD_EXIT_CODE}, PLUGIN_LOAD_FAILED). Fix the plugin, or stop loading it: ${disable}\n`);
    } else {
      // 128 + the signal's number, as for any stop signal (docs/USAGE.md, Exit codes).
      code = 128 + reason;
      writeSync(2, `mcpvm: ${signal} came while ${what} was holding mcpvm's thread; it was stopped and mcpvm exits. If it does so again, stop loading it: ${disable}\n`);
    }
    // MCP servers started so far run in process groups of their own and would outlive us.
    signalChildGroups("SIGTERM");
    void this.worker.terminate().finally(() => process.exit(code));
  }
}
