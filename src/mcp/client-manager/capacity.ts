/** What the connection cap needs to know about a server. */
export interface CapacityCandidate {
  /** Connected or connecting. */
  readonly live: boolean;
  /** Connected (only a connected server can be closed to make room). */
  readonly connected: boolean;
  readonly inFlight: number;
  readonly lastUsed: number;
}

export type RoomDecision<T> = { readonly kind: "room" } | { readonly kind: "evict"; readonly victim: T } | { readonly kind: "full" };

/**
 * Whether `requester` may go live under the cap of `max` live connections: yes; yes after closing
 * the least recently used connected server with no call in flight; or no (every live one is busy).
 */
export function decideRoom<T extends CapacityCandidate>(all: readonly T[], requester: T, max: number): RoomDecision<T> {
  const others = all.filter((candidate) => candidate !== requester && candidate.live);
  if (others.length < max) return { kind: "room" };
  let victim: T | undefined;
  for (const candidate of others) {
    if (!candidate.connected || candidate.inFlight > 0) continue;
    if (victim === undefined || candidate.lastUsed < victim.lastUsed) victim = candidate;
  }
  return victim === undefined ? { kind: "full" } : { kind: "evict", victim };
}
