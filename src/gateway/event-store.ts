import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

/**
 * One 2025-era session's SSE events, kept so a client whose connection dropped mid-call can
 * reconnect with Last-Event-ID and receive what it missed (the answer, progress, a server→client
 * request) once: MCP's "Resumability and Redelivery". Bounded per session by event count and bytes,
 * the oldest dropped first; it lives and dies with its session's transport. In memory of this
 * replica only: a resumption that reaches another replica finds nothing to replay (see `knows`).
 */
export interface EventLimits {
  readonly events: number;
  readonly bytes: number;
}

export const DEFAULT_EVENT_LIMITS: EventLimits = { events: 1_000, bytes: 4 * 1024 * 1024 };

interface Stored {
  readonly stream: StreamId;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

export class SessionEventStore implements EventStore {
  // Insertion order is event order: ids are this session's counter, so the oldest is first.
  private readonly events = new Map<EventId, Stored>();
  private next = 0;
  private bytes = 0;

  constructor(private readonly limits: EventLimits = DEFAULT_EVENT_LIMITS) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = String(++this.next);
    // The priming event is `{}`; sizes are the JSON the stream carried, which is what memory holds.
    const bytes = JSON.stringify(message).length;
    this.events.set(id, { stream, message, bytes });
    this.bytes += bytes;
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

  get size(): { events: number; bytes: number } {
    return { events: this.events.size, bytes: this.bytes };
  }

  clear(): void {
    this.events.clear();
    this.bytes = 0;
  }

  private dropOldest(): void {
    const oldest = this.events.entries().next().value;
    if (oldest === undefined) return;
    this.events.delete(oldest[0]);
    this.bytes -= oldest[1].bytes;
  }
}
