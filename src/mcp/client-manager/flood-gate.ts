/**
 * Caps how many notifications of one kind pass per second; the rest are counted and reported once
 * the next window opens, so an upstream that floods progress or log messages cannot flood the
 * host's log, the guest or the gateway's clients.
 */
export class FloodGate {
  private windowStart = Number.NEGATIVE_INFINITY;
  private passed = 0;
  private dropped = 0;

  constructor(
    private readonly maxPerSecond: number,
    private readonly onDropped: (count: number) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True when this notification may pass. */
  admit(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.flush();
      this.windowStart = now;
      this.passed = 0;
    }
    if (this.passed < this.maxPerSecond) {
      this.passed += 1;
      return true;
    }
    this.dropped += 1;
    return false;
  }

  /** Reports the drops not yet reported (at a window's end, or when the call ends). */
  flush(): void {
    if (this.dropped === 0) return;
    const count = this.dropped;
    this.dropped = 0;
    this.onDropped(count);
  }
}
