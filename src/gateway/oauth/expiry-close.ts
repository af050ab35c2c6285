import type { ServerResponse } from "node:http";

/** Node's timers fire at once for delays past 2^31 - 1 ms (~24.8 days), so longer waits are re-armed. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends a response opened with an OAuth access token when the token stops being accepted. Requests
 * are authenticated when they arrive, so without this a `subscriptions/listen` stream, a 2025
 * session's GET stream or a long call's progress stream kept delivering long after the access token
 * expired; the client reconnects with a refreshed token, as it would after any dropped stream.
 * `acceptedUntil` is epoch ms (the token's `exp` plus the clock tolerance it is checked with).
 */
export function closeWhenExpired(res: ServerResponse, acceptedUntil: number, onExpired: () => void, now: () => number = Date.now): void {
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const left = acceptedUntil - now();
    if (left <= 0) {
      onExpired();
      res.destroy();
      return;
    }
    timer = setTimeout(arm, Math.min(left, LONGEST_TIMER_MS));
    timer.unref();
  };
  res.once("close", () => clearTimeout(timer));
  arm();
}
