// The floor under the worker engine's host call (issue 15, "host call round trip"): a bare Node
// program with the same crossing and nothing else, beside the worker engine in the same rounds.
// - port + spin: the worker posts the request on a MessagePort (as quickjs-execute.ts does), the main
//   thread's listener writes a reply into a SharedArrayBuffer and bumps a word; the worker busy-waits
//   for it (as the engine's worker does for a fast reply), then Atomics.wait.
// - port + wait: the same without the busy wait (the worker sleeps in Atomics.wait at once).
// - port both ways: the reply by MessagePort too (receiveMessageOnPort after Atomics.wait).
// Usage: node bench/_hostcall-floor.mjs (after npm run build, for the engine's row). Files starting with _ are not sections.
import { MessageChannel, Worker } from "node:worker_threads";
import { loadavg } from "node:os";
import { summarize } from "./_stats.mjs";

const CALLS = 2000;
const ROUNDS = 9;

const WORKER = `
const { workerData, parentPort, receiveMessageOnPort } = require("node:worker_threads");
const { port, back, control, mode } = workerData;
const words = new Int32Array(control);
function call(i) {
  const seen = Atomics.load(words, 0);
  port.postMessage({ type: "call", callId: i, module: "bench", fn: "noop", argsText: "[]" });
  if (mode === "spin") { const until = performance.now() + 0.15; while (Atomics.load(words, 0) === seen && performance.now() < until); }
  while (Atomics.load(words, 0) === seen) Atomics.wait(words, 0, seen, 1000);
  if (mode === "ports") { let m; while ((m = receiveMessageOnPort(back)) === undefined) Atomics.wait(words, 0, Atomics.load(words, 0), 1); return m.message; }
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
  const { port1: back1, port2: back2 } = new MessageChannel();
  const control = new SharedArrayBuffer(8);
  const words = new Int32Array(control);
  const worker = new Worker(WORKER, { eval: true, workerData: { port: port2, back: back2, control, mode }, transferList: [port2, back2] });
  port1.on("message", (message) => {
    if (mode === "ports") back1.postMessage({ type: "reply", callId: message.callId, text: '{"ok":true,"value":null}' });
    else Atomics.store(words, 1, message.callId);
    Atomics.add(words, 0, 1);
    Atomics.notify(words, 0);
  });
  const run = (n) => new Promise((resolve) => { worker.once("message", resolve); worker.postMessage(n); });
  await run(CALLS);
  const perCall = [];
  for (let r = 0; r < ROUNDS; r++) perCall.push(((await run(CALLS)) * 1000) / CALLS);
  await worker.terminate();
  port1.close();
  back1.close();
  return summarize(perCall);
}

async function engine() {
  const { createQuickJsEngine } = await import(new URL("../dist/src/sandbox/engines/quickjs.js", import.meta.url).href);
  const e = await createQuickJsEngine({ warmWorkers: 1 });
  const modules = { bench: { noop: () => null } };
  const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${CALLS}; i++) { ${body} } return 0;`;
  const timed = async (code) => { const t = performance.now(); const r = await e.run({ code, modules }); if (!r.ok) throw new Error(r.error.message); return performance.now() - t; };
  for (let i = 0; i < 3; i++) await timed(loop("m.noop();"));
  const perCall = [];
  for (let r = 0; r < ROUNDS; r++) perCall.push((((await timed(loop("m.noop();"))) - (await timed(loop("void i;")))) * 1000) / CALLS);
  await e.dispose();
  return summarize(perCall);
}

const load = loadavg()[0];
const rows = [];
for (let round = 0; round < 2; round++) {
  for (const mode of ["spin", "wait", "ports"]) rows.push([`bare: port + ${mode === "ports" ? "port (both ways)" : mode}`, await floor(mode)]);
  rows.push(["worker engine: guest -> host noop", await engine()]);
}
console.log(`load average ${load.toFixed(2)} at start`);
for (const [name, s] of rows) console.log(`${name}: p50 ${s.p50.toFixed(1)} µs, p95 ${s.p95.toFixed(1)} µs`);
