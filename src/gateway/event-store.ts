import type { ServerResponse } from "node:http";
import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";
import { requestIdsOf } from "./session-close.js";

/**
 * One 2025-era session's SSE events, kept so a client whose connection dropped mid-call can
 * reconnect with Last-Event-ID and receive what it missed (the answer, progress, a server→client
 * request) once: MCP's "Resumability and Redelivery". Bounded per session by event count and bytes,
 * the oldest dropped first; it lives and dies with its session's transport. In memory of this
 * replica only: a resumption that reaches another replica finds nothing to replay (see `knows`).
 *
 * A stream whose answer went out whole (its response finished: `trackDelivery`) has nothing left to
 * resume, so its events are let go then instead of staying until the caps push them out: a session
 * making calls back to back held its last 1,000 events (answers included) in the gateway's heap
 * (bench/_gw-events-ab.mjs). An answer on a stream still open is not encoded to be sized (the SDK
 * encodes it for the wire; a tool result can be large): it is let go with its stream, or sized when
 * the stream drops, from when it counts against the byte cap. A connection lost after the answer was
 * written whole to it finds nothing to resume: the 404 of an unknown event id.
 */
export interface EventLimits {
  readonly events: number;
  readonly bytes: number;
}

export const DEFAULT_EVENT_LIMITS: EventLimits = { events: 1_000, bytes: 4 * 1024 * 1024 };

type RequestId = string | number;

interface Stored {
  readonly stream: StreamId;
  readonly message: JSONRPCMessage;
  /** The JSON's length; undefined for an answer on a stream not (yet) known to have dropped. */
  bytes: number | undefined;
}

/** The id a JSON-RPC response answers (result or error), or undefined for requests and notifications. */
function answerId(message: JSONRPCMessage): RequestId | undefined {
  const { id, result, error } = message as { id?: unknown; result?: unknown; error?: unknown };
  return (result !== undefined || error !== undefined) && (typeof id === "string" || typeof id === "number") ? id : undefined;
}

export class SessionEventStore implements EventStore {
  // Insertion order is event order: ids are this session's counter, so the oldest is first.
  private readonly events = new Map<EventId, Stored>();
  private readonly byStream = new Map<StreamId, EventId[]>();
  /** Requests answered on a stream still open: their stream, to let go once the response has finished. */
  private readonly answered = new Map<RequestId, StreamId>();
  /** Requests whose response closed before finishing and not answered yet (insertion order: oldest first). */
  private readonly dropped = new Set<RequestId>();
  private next = 0;
  private bytes = 0;

  constructor(private readonly limits: EventLimits = DEFAULT_EVENT_LIMITS) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = String(++this.next);
    const answers = answerId(message);
    const live = answers !== undefined && !this.dropped.delete(answers);
    // The priming event is `{}`; sizes are the JSON the stream carried, which is what memory holds.
    const bytes = live ? undefined : JSON.stringify(message).length;
    this.events.set(id, { stream, message, bytes });
    const ids = this.byStream.get(stream);
    if (ids === undefined) this.byStream.set(stream, [id]);
    else ids.push(id);
    if (live) this.answered.set(answers, stream);
    if (bytes !== undefined) this.bytes += bytes;
    while (this.events.size > this.limits.events || (this.bytes > this.limits.bytes && this.events.size > 1)) this.dropOldest();
    return id;
  }

  /** Whether an event id is still held here (dropped, another replica's, or made up: no). */
  knows(id: EventId): boolean {
    return this.events.has(id);
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    return this.events.get(id)?.stream;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.events.get(lastEventId);
    if (last === undefined) throw new Error(`event ${lastEventId} is not held for this session`);
    const after = Number(lastEventId);
    // Only the events of the same stream, after the last one the client saw; the priming `{}` carries nothing.
    for (const [id, event] of [...this.events]) {
      if (Number(id) <= after || event.stream !== last.stream || Object.keys(event.message).length === 0) continue;
      await send(id, event.message);
    }
    return last.stream;
  }

  /**
   * The response of a POST holding these requests ended: finished whole (`delivered`), its answers'
   * streams are let go; closed before (the client may resume), what they hold is sized and kept, and
   * answers still to come are sized as they are stored.
   */
  settle(requests: readonly RequestId[], delivered: boolean): void {
    for (const request of requests) {
      const stream = this.answered.get(request);
      this.answered.delete(request);
      if (delivered) {
        if (stream !== undefined) this.release(stream);
      } else if (stream !== undefined) {
        for (const id of this.byStream.get(stream) ?? []) this.sizeEvent(id);
      } else {
        this.dropped.add(request);
        // A request that was dropped and then cancelled is never answered: keep the set bounded.
        if (this.dropped.size > this.limits.events) this.dropped.delete(this.dropped.values().next().value as RequestId);
      }
    }
    while (this.bytes > this.limits.bytes && this.events.size > 1) this.dropOldest();
  }

  get size(): { events: number; bytes: number } {
    return { events: this.events.size, bytes: this.bytes };
  }

  clear(): void {
    this.events.clear();
    this.byStream.clear();
    this.answered.clear();
    this.dropped.clear();
    this.bytes = 0;
  }

  private sizeEvent(id: EventId): void {
    const event = this.events.get(id);
    if (event === undefined || event.bytes !== undefined) return;
    event.bytes = JSON.stringify(event.message).length;
    this.bytes += event.bytes;
  }

  private release(stream: StreamId): void {
    for (const id of this.byStream.get(stream) ?? []) this.forget(id);
    this.byStream.delete(stream);
  }

  private forget(id: EventId): void {
    const event = this.events.get(id);
    if (event === undefined) return;
    this.events.delete(id);
    this.bytes -= event.bytes ?? 0;
  }

  private dropOldest(): void {
    const oldest = this.events.entries().next().value;
    if (oldest === undefined) return;
    this.forget(oldest[0]);
    // A stream's events are in event order too: the oldest of all is the first of its stream's.
    const ids = this.byStream.get(oldest[1].stream);
    ids?.shift();
    if (ids?.length === 0) this.byStream.delete(oldest[1].stream);
  }
}

/**
 * Tells a session's store how a 2025 POST's response ended: finished whole, or closed first (the
 * client may resume). Only POSTs carrying requests answer on a stream of their own.
 */
export function trackDelivery(res: ServerResponse, body: unknown, store: SessionEventStore | undefined): void {
  if (store === undefined) return;
  const requests = requestIdsOf(body);
  if (requests.length === 0) return;
  res.once("close", () => store.settle(requests, res.writableFinished));
}
