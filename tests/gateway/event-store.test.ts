import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { SessionEventStore } from "../../src/gateway/event-store.js";

const note = (n: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: n } });

async function replay(store: SessionEventStore, after: string): Promise<Array<[string, JSONRPCMessage]>> {
  const sent: Array<[string, JSONRPCMessage]> = [];
  await store.replayEventsAfter(after, { send: async (id, message) => void sent.push([id, message]) });
  return sent;
}

describe("a session's event store", () => {
  it("replays only the events of the same stream after the last one seen", async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent("a", {} as JSONRPCMessage);
    const first = await store.storeEvent("a", note(1));
    await store.storeEvent("b", note(99));
    await store.storeEvent("a", note(2));
    expect((await replay(store, priming)).map(([, m]) => (m as unknown as { params: { progress: number } }).params.progress)).toEqual([1, 2]);
    expect((await replay(store, first)).map(([, m]) => (m as unknown as { params: { progress: number } }).params.progress)).toEqual([2]);
    expect(await store.getStreamIdForEventId(first)).toBe("a");
  });

  it("drops the oldest events over the count or byte cap, and forgets dropped ids", async () => {
    const store = new SessionEventStore({ events: 3, bytes: 10_000 });
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push(await store.storeEvent("a", note(i)));
    expect(store.size.events).toBe(3);
    expect(store.knows(ids[0] as string)).toBe(false);
    expect(await store.getStreamIdForEventId(ids[1] as string)).toBeUndefined();
    const small = new SessionEventStore({ events: 100, bytes: 200 });
    for (let i = 0; i < 10; i += 1) await small.storeEvent("a", note(i));
    expect(small.size.bytes).toBeLessThanOrEqual(200);
    expect(small.size.events).toBeGreaterThan(0);
    await expect(replay(small, "1")).rejects.toThrow(/not held/);
  });
});
