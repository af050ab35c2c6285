// Probe (issue 15, worker engine): how fast the main thread hears a worker's host-call request, by
// MessagePort (what quickjs-execute.ts does today) or by a shared-memory mailbox the main thread
// watches with Atomics.waitAsync; the reply goes back the same way in both (a word in shared memory,
// Atomics.notify, the worker spinning briefly then sleeping in Atomics.wait, as the engine does).
// Rounds alternate; per-call wall and this process's CPU (all threads), p50 of the rounds.
// Usage: node bench/_wake-probe.mjs [calls=2000] [rounds=9]
import { MessageChannel, Worker } from "node:worker_threads";
import { loadavg } from "node:os";
import { summarize } from "./_stats.mjs";

const CALLS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 9);

const WORKER = `
const { workerData, parentPort } = require("node:worker_threads");
const { port, control, mode } = workerData;
const words = new Int32Array(control);
// words[0]: replies counter; words[1]: reply value; words[2]: requests counter; words[3]: request id.
function call(i) {
  const seen = Atomics.load(words, 0);
  if (mode === "port") port.postMessage({ type: "call", callId: i, module: "bench", fn: "noop", argsText: "[]" });
  else { Atomics.store(words, 3, i); Atomics.add(words, 2, 1); Atomics.notify(words, 2); }
  const until = performance.now() + 0.15;
  while (Atomics.load(words, 0) === seen && performance.now() < until);
  while (Atomics.load(words, 0) === seen) Atomics.wait(words, 0, seen, 1000);
  return Atomics.load(words, 1);
}
parentPort.on("message", (n) => {
  const started = performance.now();
  for (let i = 0; i < n; i++) call(i);
  parentPort.postMessage(performance.now() - started);
});
`;

async function floor(mode) {
  const { port1, port2 } = new MessageChannel();
  const control = new SharedArrayBuffer(16);
  const words = new Int32Array(control);
  const worker = new Worker(WORKER, { eval: true, workerData: { port: port2, control, mode }, transferList: [port2] });
  const reply = (callId) => {
    Atomics.store(words, 1, callId);
    Atomics.add(words, 0, 1);
    Atomics.notify(words, 0);
  };
  let watching = true;
  if (mode === "port") port1.on("message", (message) => reply(message.callId));
  else {
    let seen = 0;
    const watch = () => {
      if (!watching) return;
      const now = Atomics.load(words, 2);
      if (now !== seen) {
        seen = now;
        reply(Atomics.load(words, 3));
        queueMicrotask(watch);
        return;
      }
      const waited = Atomics.waitAsync(words, 2, seen);
      if (waited.async) waited.value.then(watch);
      else queueMicrotask(watch);
    };
    watch();
  }
  const run = (n) => new Promise((resolve) => { worker.once("message", resolve); worker.postMessage(n); });
  await run(CALLS);
  const wall = [];
  const cpu = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    wall.push(((await run(CALLS)) * 1000) / CALLS);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / CALLS);
  }
  watching = false;
  Atomics.add(words, 2, 1);
  Atomics.notify(words, 2);
  await worker.terminate();
  port1.close();
  return { wall: summarize(wall), cpu: summarize(cpu) };
}

const load = loadavg()[0];
const rows = [];
for (let round = 0; round < 2; round++) for (const mode of round % 2 === 0 ? ["port", "waitAsync"] : ["waitAsync", "port"]) rows.push([mode, await floor(mode)]);
console.log(`load average ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`);
for (const [name, s] of rows) console.log(`request by ${name}: wall p50 ${s.wall.p50.toFixed(1)} µs (p95 ${s.wall.p95.toFixed(1)}), cpu p50 ${s.cpu.p50.toFixed(1)} µs per call`);
