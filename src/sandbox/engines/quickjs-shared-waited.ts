import { SHARED_CONTROL } from "./quickjs-shared-protocol.js";

/**
 * The main thread's side of a shared worker's waited call (SHARED_CONTROL in
 * quickjs-shared-protocol.ts): a run alone on its thread sleeps in Atomics.wait for its synchronous
 * host call's reply instead of unwinding to the worker's event loop. This side writes a reply that
 * fits into the shared buffer and wakes the worker, or, before anything else is posted to the thread
 * or once the call has been out for `SHARED_CONTROL.waitMs` or more, takes the worker out of its wait
 * (it then suspends the guest as for any call, and reads its port).
 */
export class SharedWaitedCall {
  /** Replies written into shared memory (for tests and diagnostics). */
  replied = 0;
  /** Calls released because they were still out after `SHARED_CONTROL.waitMs` (for tests and diagnostics). */
  releasedSlow = 0;
  private readonly reply: Buffer;
  private slowCheck: ReturnType<typeof setTimeout> | undefined;
  /** The run and call found asleep at the last check: still the same one at the next is a slow call. */
  private checkedRun = -1;
  private checkedCall = -1;

  constructor(
    private readonly control: Int32Array,
    reply: SharedArrayBuffer,
  ) {
    this.reply = Buffer.from(reply);
  }

  /** The worker sleeps in a host call, waiting for its reply here. */
  get asleep(): boolean {
    return Atomics.load(this.control, SHARED_CONTROL.wait) === SHARED_CONTROL.waitWaiting;
  }

  /**
   * Answers the call the worker sleeps in, if it is this one and its reply fits; false otherwise
   * (the reply then goes as a message, after `beforePost`).
   */
  answer(runId: number, callId: number, text: string): boolean {
    const C = SHARED_CONTROL;
    const control = this.control;
    if (Atomics.load(control, C.wait) !== C.waitWaiting || Atomics.load(control, C.waitRun) !== runId || Atomics.load(control, C.waitCall) !== callId) return false;
    if (text.length > C.replyUnits) return false;
    this.reply.write(text, 0, "utf16le");
    Atomics.store(control, C.replyLength, text.length);
    // Only this thread leaves WAITING, so the exchange cannot fail after the test above; checked all the same.
    if (Atomics.compareExchange(control, C.wait, C.waitWaiting, C.waitReplied) !== C.waitWaiting) return false;
    Atomics.notify(control, C.wait);
    this.replied++;
    return true;
  }

  /**
   * A host call arrived from the worker: makes sure a check runs every `waitMs` while the worker is
   * asleep, one timer for the thread however many calls come (not one per call, which would cost the
   * fast calls the waited call is for).
   */
  watch(): void {
    if (this.slowCheck === undefined) this.slowCheck = setTimeout(this.checkSlow, SHARED_CONTROL.waitMs).unref();
  }

  /** Ends the checks (the thread is gone). */
  close(): void {
    clearTimeout(this.slowCheck);
    this.slowCheck = undefined;
  }

  private readonly checkSlow = (): void => {
    const C = SHARED_CONTROL;
    this.slowCheck = undefined;
    if (!this.asleep) return;
    const run = Atomics.load(this.control, C.waitRun);
    const call = Atomics.load(this.control, C.waitCall);
    if (run === this.checkedRun && call === this.checkedCall) {
      if (Atomics.compareExchange(this.control, C.wait, C.waitWaiting, C.waitReleased) === C.waitWaiting) {
        Atomics.notify(this.control, C.wait);
        this.releasedSlow++;
      }
      return;
    }
    this.checkedRun = run;
    this.checkedCall = call;
    this.watch();
  };

  /**
   * Before a message is posted to the worker (or it is terminated): counts it in `posted`, then wakes
   * a worker asleep in a call. The worker tests `posted` after entering WAITING, so either it sees the
   * message coming and does not sleep, or this sees it asleep and releases it.
   */
  beforePost(): void {
    const C = SHARED_CONTROL;
    Atomics.add(this.control, C.posted, 1);
    if (Atomics.compareExchange(this.control, C.wait, C.waitWaiting, C.waitReleased) === C.waitWaiting) Atomics.notify(this.control, C.wait);
  }
}
