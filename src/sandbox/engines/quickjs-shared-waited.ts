import { SHARED_CONTROL } from "./quickjs-shared-protocol.js";

/**
 * The main thread's side of a shared worker's waited call (SHARED_CONTROL in
 * quickjs-shared-protocol.ts): a run alone on its thread sleeps in Atomics.wait for its synchronous
 * host call's reply instead of unwinding to the worker's event loop. This side writes a reply that
 * fits into the shared buffer and wakes the worker, or, before anything else is posted to the thread,
 * takes the worker out of its wait (it then suspends the guest as for any call, and reads its port).
 */
export class SharedWaitedCall {
  /** Replies written into shared memory (for tests and diagnostics). */
  replied = 0;
  private readonly reply: Buffer;

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
    // Only this thread leaves WAITING, so the exchange cannot fail here; it publishes the text above.
    Atomics.compareExchange(control, C.wait, C.waitWaiting, C.waitReplied);
    Atomics.notify(control, C.wait);
    this.replied++;
    return true;
  }

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
