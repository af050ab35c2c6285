// The session event store's own cost per 2025 SSE call (wave 25, issue 15), in this process: what the SDK
// asks of it for one call (the priming event, the answer) and what the gateway adds when the response ends,
// for `sessions` sessions taking turns, versus another version of the store given by path (the one before,
// from git show). Rounds interleaved; heap retained measured after a collection. Not a section of `npm run bench`.
//   npx vite-node bench/_event-store-micro.ts -- <other store .ts> [answer characters] [calls per round]
//   (run node with --expose-gc through NODE_OPTIONS for the heap figures)
import { loadavg } from "node:os";
import { resolve } from "node:path";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { SessionEventStore } from "../src/gateway/event-store.js";

interface Store {
  storeEvent(stream: string, message: JSONRPCMessage): Promise<string>;
  settle?(requests: ReadonlyArray<string | number>, delivered: boolean): void;
}
type Make = () => Store;

const args = process.argv.slice(2).filter((a) => a !== "--");
const other = ((await import(resolve(args[0] ?? ""))) as { SessionEventStore: new () => Store }).SessionEventStore;
const pad = Number(args[1] ?? 100);
const calls = Number(args[2] ?? 50_000);
const sessions = 10;
const text = "x".repeat(pad);

async function round(make: Make): Promise<{ usPerCall: number; heapMb: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const stores = Array.from({ length: sessions }, make);
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i += 1) {
    const store = stores[i % sessions] as Store;
    const stream = `s${i}`;
    await store.storeEvent(stream, {} as JSONRPCMessage);
    await store.storeEvent(stream, { jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text: `${i}${text}` }] } } as JSONRPCMessage);
    store.settle?.([i], true);
  }
  const cpu = process.cpuUsage(started);
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  stores.length = 0;
  return { usPerCall: (cpu.user + cpu.system) / calls, heapMb };
}

const kinds: Array<[string, Make]> = [
  ["before (the store given)", () => new other()],
  ["after", () => new SessionEventStore()],
];
const results = new Map<string, Array<{ usPerCall: number; heapMb: number }>>(kinds.map(([k]) => [k, []]));
const startLoad = loadavg().map((l) => l.toFixed(2)).join(" / ");
for (let r = 0; r < 7; r += 1) for (const [label, make] of r % 2 === 0 ? kinds : [...kinds].reverse()) results.get(label)?.push(await round(make));
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;
console.log(`${sessions} sessions, ${calls} calls a round (answers of ${pad} characters), 7 interleaved rounds (first dropped); load ${startLoad} at start`);
for (const [label, runs] of results) {
  const kept = runs.slice(1);
  console.log(`${label}: CPU ${median(kept.map((r) => r.usPerCall)).toFixed(2)} µs per call (rounds ${kept.map((r) => r.usPerCall.toFixed(1)).join(" ")}), heap held by the stores ${median(kept.map((r) => r.heapMb)).toFixed(1)} MB`);
}
