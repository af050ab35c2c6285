import { capacityError } from "./manager-errors.js";
import type { ServerSlot } from "./slot.js";

/** What the connection cap needs to know about a server. */
export interface CapacityCandidate {
  /** Connected, or let through the cap and opening its connection. */
  readonly live: boolean;
  /** Connected (only a connected server can be closed to make room). */
  readonly connected: boolean;
  readonly inFlight: number;
  /** Held running (ServerSlot.hold): never closed to make room. */
  readonly holds?: number;
  readonly lastUsed: number;
  /** Taken out by a config.json edit and draining its calls: its place frees once it is closed. */
  readonly retired?: boolean;
}

export type RoomDecision<T> =
  | { readonly kind: "room" }
  | { readonly kind: "evict"; readonly victim: T }
  /**
   * No place now, but these are still opening (once one has, it is idle, so evictable, or busy) or
   * draining after a config.json edit (closed within the drain time): decide again when one settles.
   */
  | { readonly kind: "wait"; readonly opening: readonly T[] }
  | { readonly kind: "full" };

/**
 * Whether `requester` may go live under the cap of `max` live connections: yes; yes after closing
 * the least recently used connected server with no call in flight and no hold; not yet, while some live ones are
 * still opening (servers started together, as a first listing of every server does, must not refuse
 * each other) or draining after a config.json edit; or no (every live one is connected and busy).
 */
export function decideRoom<T extends CapacityCandidate>(all: readonly T[], requester: T, max: number): RoomDecision<T> {
  const others = all.filter((candidate) => candidate !== requester && candidate.live);
  if (others.length < max) return { kind: "room" };
  let victim: T | undefined;
  for (const candidate of others) {
    if (!candidate.connected || candidate.inFlight > 0 || (candidate.holds ?? 0) > 0) continue;
    if (victim === undefined || candidate.lastUsed < victim.lastUsed) victim = candidate;
  }
  if (victim !== undefined) return { kind: "evict", victim };
  const opening = others.filter((candidate) => !candidate.connected || candidate.retired === true);
  return opening.length > 0 ? { kind: "wait", opening } : { kind: "full" };
}

/**
 * Gives `slot` a place under the cap (marking it admitted), closing the least recently used idle
 * server when needed, waiting while others are opening, or throwing MCP_CAPACITY when every live
 * one is connected and busy. Returns early once `signal` is aborted (the caller checks it).
 */
export async function waitForRoom(slots: () => ServerSlot[], slot: ServerSlot, max: number, signal: AbortSignal): Promise<void> {
  for (;;) {
    if (signal.aborted) return;
    const decision = decideRoom(slots(), slot, max);
    if (decision.kind === "room") {
      slot.admitted = true;
      return;
    }
    if (decision.kind === "full") throw capacityError(slot.name, max);
    if (decision.kind === "wait") {
      // Each opening connect settles (connected, failed, or its connect timeout), and each retired
      // slot is closed within its drain time, so this wait ends.
      await Promise.race(decision.opening.map((other) => other.connecting?.catch(() => undefined) ?? other.retirement));
      continue;
    }
    await decision.victim.shutdown("idle");
  }
}
