import type { Progress } from "@modelcontextprotocol/client";
import { isMcpvmError } from "../../util/errors.js";
import { runAsCall, type InFlightCall } from "./call-origin.js";
import { isConnectionFatal } from "./errors.js";
import type { Connection } from "./connection.js";
import type { ClientManagerEvent } from "./events.js";
import { FloodGate } from "./flood-gate.js";
import type { ServerSlot } from "./slot.js";

/** The manager's parts a call needs; kept apart so client-manager.ts stays about connections. */
export interface CallRunnerDeps {
  readonly now: () => number;
  readonly emit: (event: ClientManagerEvent) => void;
  readonly markDead: (slot: ServerSlot, connection: Connection) => void;
  readonly scheduleIdle: (slot: ServerSlot) => void;
  readonly maxNotificationsPerSecond: number;
  /** Every call in flight on any server, for call-origin.ts. */
  readonly inFlight: Set<InFlightCall>;
}

export interface RunCallOptions {
  readonly call: InFlightCall;
  /** Shown in the timing event's detail (a tool name, a URI). */
  readonly detail: Readonly<Record<string, unknown>>;
  readonly onProgress?: (progress: Progress) => void;
}

/**
 * One request on a live connection: in-flight count (the idle timer and LRU eviction honour it),
 * the call's origin for server→client requests, flood-capped progress, the timing event, and a
 * transport failure marking the connection dead.
 */
export async function runCall<T>(
  deps: CallRunnerDeps,
  slot: ServerSlot,
  connection: Connection,
  options: RunCallOptions,
  send: (onProgress: ((progress: Progress) => void) | undefined) => Promise<T>,
  outcomeOf: (result: T) => string = () => "ok",
): Promise<T> {
  slot.inFlight += 1;
  slot.lastUsed = deps.now();
  deps.inFlight.add(options.call);
  const started = performance.now();
  const onProgressRaw = options.onProgress;
  const gate =
    onProgressRaw === undefined
      ? undefined
      : new FloodGate(deps.maxNotificationsPerSecond, (count) => deps.emit({ type: "notificationsDropped", server: slot.name, kind: "progress", count }));
  const onProgress =
    onProgressRaw === undefined || gate === undefined
      ? undefined
      : (progress: Progress): void => {
          if (gate.admit()) onProgressRaw(progress);
        };
  let outcome = "failed";
  try {
    const result = await runAsCall(options.call, () => send(onProgress));
    // A progress notification read in the same chunk as the response may still be queued behind
    // it: let it reach the caller before the call counts as finished.
    if (onProgress !== undefined) await new Promise((resolve) => setImmediate(resolve));
    outcome = outcomeOf(result);
    return result;
  } catch (error) {
    if (isMcpvmError(error) && isConnectionFatal(error)) deps.markDead(slot, connection);
    throw error;
  } finally {
    gate?.flush();
    deps.inFlight.delete(options.call);
    slot.inFlight -= 1;
    slot.lastUsed = deps.now();
    deps.emit({
      type: "timing",
      server: slot.name,
      phase: options.call.method === "tools/call" ? "call" : "request",
      ms: Math.round(performance.now() - started),
      detail: { ...(options.call.method === "tools/call" ? {} : { method: options.call.method }), ...options.detail, outcome },
    });
    deps.scheduleIdle(slot);
  }
}
