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

  it("lets a delivered stream's events go, and sizes an answer only once its stream dropped", async () => {
    const answer = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "x".repeat(1000) }] } });
    const store = new SessionEventStore({ events: 100, bytes: 100_000 });
    const priming = await store.storeEvent("a", {} as JSONRPCMessage);
    await store.storeEvent("a", note(1));
    const before = store.size.bytes;
    await store.storeEvent("a", answer(7));
    // An answer on a stream still open is not encoded to be sized.
    expect(store.size.bytes).toBe(before);
    await store.storeEvent("b", note(5));
    store.settle([7], true);
    // Nothing of stream a is left to resume; stream b's event stays.
    expect(store.knows(priming)).toBe(false);
    expect(store.size.events).toBe(1);

    // Stream c drops before its answer: the answer is sized as it is stored, and kept for the resume.
    const primingC = await store.storeEvent("c", {} as JSONRPCMessage);
    store.settle([8], false);
    await store.storeEvent("c", answer(8));
    expect(store.size.bytes).toBeGreaterThan(1000);
    // Stream d is answered, then drops before the answer went out whole: the answer is sized then, and kept.
    const primingD = await store.storeEvent("d", {} as JSONRPCMessage);
    await store.storeEvent("d", answer(9));
    const sized = store.size.bytes;
    store.settle([9], false);
    expect(store.size.bytes).toBeGreaterThan(sized + 1000);
    // A stream answered and delivered later is let go; the dropped ones stay.
    await store.storeEvent("e", {} as JSONRPCMessage);
    await store.storeEvent("e", answer(10));
    store.settle([10], true);
    expect(store.size.events).toBe(5);
    expect((await replay(store, primingC)).map(([, m]) => (m as { id?: number }).id)).toEqual([8]);
    expect((await replay(store, primingD)).map(([, m]) => (m as { id?: number }).id)).toEqual([9]);
  });
});
