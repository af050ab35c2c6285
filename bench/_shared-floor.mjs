// The floor under the shared worker engine's host call (issue 15): a bare Node program with the same
// crossing and nothing else — a worker posts a call, the main thread's listener posts the reply, the
// worker's event loop resumes the caller — beside the engines' trivial host call, rounds interleaved
// (order rotating), wall and this process's CPU (all threads) per call.
// - object: the call and the reply as objects of a few fields (the shared engine before wave 13).
// - string: the same fields in one string each way (quickjs-shared-wire.ts).
// - string + spin: the worker polls for the reply (receiveMessageOnPort) for up to 50 µs before its
//   event loop sleeps.
// Usage: node bench/_shared-floor.mjs [calls=2000] [rounds=9] [dist=dist] (after npm run build). Files starting with _ are not sections.
import { Worker } from "node:worker_threads";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { summarize } from "./_stats.mjs";

const CALLS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 9);
const DIST = process.argv[4] ?? "dist";

const WORKER = `
const { workerData, parentPort, receiveMessageOnPort } = require("node:worker_threads");
const { mode } = workerData;
const waiting = new Map();
let next = 0;
const onReply = (m) => {
  let id;
  let text;
  if (typeof m === "string") {
    const bar = m.indexOf("|");
    id = Number(m.slice(0, bar));
    text = m.slice(bar + 1);
  } else if (m.type === "reply") ({ callId: id, text } = m);
  else return false;
  const resolve = waiting.get(id);
  waiting.delete(id);
  resolve(text);
  return true;
};
const spin = () => {
  const until = performance.now() + 0.05;
  while (performance.now() < until) {
    const got = receiveMessageOnPort(parentPort);
    if (got !== undefined && onReply(got.message)) return;
  }
};
const call = () => new Promise((resolve) => {
  const callId = next++;
  waiting.set(callId, resolve);
  if (mode === "object") parentPort.postMessage({ type: "call", runId: 1, callId, module: "bench", fn: "noop", argsText: '["x"]', listen: false, live: false });
  else parentPort.postMessage("1,0,0,5,4:" + callId + "|benchnoop" + '["x"]');
  if (mode === "spin") queueMicrotask(spin);
});
parentPort.on("message", async (m) => {
  if (typeof m === "string" || m.type === "reply") return void onReply(m);
  const started = performance.now();
  for (let i = 0; i < m.n; i++) await call();
  parentPort.postMessage({ type: "done", ms: performance.now() - started });
});
`;

async function floor(mode) {
  const worker = new Worker(WORKER, { eval: true, workerData: { mode } });
  let done;
  worker.on("message", (m) => {
    if (typeof m === "string") {
      const id = m.slice(m.indexOf(":") + 1, m.indexOf("|"));
      worker.postMessage(`${id}|\u0001ok`);
    } else if (m.type === "done") done(m.ms);
    else worker.postMessage({ type: "reply", runId: m.runId, callId: m.callId, text: "\u0001ok" });
  });
  const run = () => new Promise((resolve) => ((done = resolve), worker.postMessage({ n: CALLS })));
  await run();
  return { run: async () => ({ ms: await run() }), close: () => worker.terminate() };
}

async function engine(kind) {
  const url = (file) => pathToFileURL(resolve(DIST, "src/sandbox/engines", file)).href;
  const e =
    kind === "quickjs-inline"
      ? await (await import(url("quickjs-inline.js"))).createQuickJsInlineEngine({})
      : await (await import(url("quickjs.js"))).createQuickJsEngine({ warmWorkers: 1, workerMode: kind === "quickjs (shared)" ? "shared" : "thread" });
  const modules = { bench: { noop: () => "ok" } };
  const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${CALLS}; i++) { ${body} } return 0;`;
  const timed = async (code) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await e.run({ code, modules });
    if (!r.ok) throw new Error(r.error.message);
    const c = process.cpuUsage(c0);
    return { ms: performance.now() - t0, cpu: c.user + c.system };
  };
  for (let i = 0; i < 3; i++) await timed(loop('m.noop("x");'));
  return {
    run: async () => {
      const withCalls = await timed(loop('m.noop("x");'));
      const without = await timed(loop("void i;"));
      return { ms: withCalls.ms - without.ms, cpu: withCalls.cpu - without.cpu };
    },
    close: () => e.dispose(),
  };
}

const cases = {
  "bare: object messages": await floor("object"),
  "bare: string messages": await floor("string"),
  "bare: string + 50 µs spin": await floor("spin"),
  "quickjs-inline": await engine("quickjs-inline"),
  "quickjs (shared)": await engine("quickjs (shared)"),
  "quickjs (thread)": await engine("quickjs (thread)"),
};
const load = loadavg()[0];
const names = Object.keys(cases);
const samples = Object.fromEntries(names.map((name) => [name, { wall: [], cpu: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + round) % names.length];
    const c0 = process.cpuUsage();
    const got = await cases[name].run();
    const c = process.cpuUsage(c0);
    samples[name].wall.push((got.ms * 1000) / CALLS);
    samples[name].cpu.push((got.cpu ?? c.user + c.system) / CALLS);
  }
}
console.log(`${CALLS} calls × ${ROUNDS} rounds, load ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`);
for (const name of names) {
  const wall = summarize(samples[name].wall);
  const cpu = summarize(samples[name].cpu);
  console.log(`${name.padEnd(26)} wall p50 ${wall.p50.toFixed(1)} µs (p95 ${wall.p95.toFixed(1)}), cpu p50 ${cpu.p50.toFixed(1)} µs per call`);
}
for (const c of Object.values(cases)) await c.close();
