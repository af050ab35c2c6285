// Prototype measurement for issue 15's "memory per live sandbox" on the worker engine: what ten live
// sandboxes cost when they share ONE worker thread (QuickJS's asyncify build in the worker, one wasm
// instance per suspended run, a host call an async message to the main thread and back) instead of
// holding a thread each (the worker engine today: ~9 MB a live sandbox, a bare Node worker ~8.3 MB).
// Each guest builds the same 30,000-element array as bench/_sandbox-memory.mjs and then waits in a host
// call until all are live. Usage: node --expose-gc bench/_shared-worker-probe.mjs [N]. Not a section.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const require = createRequire(import.meta.url);
const N = Number(process.argv[2] ?? 10);
const VARIANT = "@jitl/quickjs-wasmfile-release-asyncify";
const { WebAssembly } = globalThis;
const wasmModule = new WebAssembly.Module(readFileSync(require.resolve(`${VARIANT}/wasm`)));

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const core = require(workerData.core);
const published = require(workerData.variant).default;
const glue = require(workerData.glue);
const variant = { ...published, importModuleLoader: () => Promise.resolve(glue) };
const waiting = new Map();
let nextId = 0;
parentPort.on("message", (m) => {
  if (m.type === "reply") { waiting.get(m.id)?.(m.text); waiting.delete(m.id); return; }
  if (m.type === "run") void run(m.index);
  if (m.type === "gc") { globalThis.gc?.(); setTimeout(() => { globalThis.gc?.(); parentPort.postMessage({ type: "collected" }); }, 100); }
});
async function run(index) {
  const module = await core.newQuickJSAsyncWASMModuleFromVariant(core.newVariant(variant, { wasmModule: workerData.wasmModule }));
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  const call = context.newAsyncifiedFunction("call", async () => {
    const id = nextId++;
    const text = await new Promise((resolve) => { waiting.set(id, resolve); parentPort.postMessage({ type: "call", id }); });
    return context.newString(text);
  });
  context.setProp(context.global, "call", call);
  call.dispose();
  const result = await context.evalCodeAsync('const keep = new Array(30000).fill(0).map((_, i) => i); call().length + keep.length');
  const value = context.dump(context.unwrapResult(result));
  // The asyncify module forgets a runtime's callbacks before freeing it, so the final GC's free of the host
  // function throws (the in-thread engine's adapter works around it): the instance is dropped whole instead.
  try { context.dispose(); runtime.dispose(); } catch {}
  parentPort.postMessage({ type: "done", index, value });
}
parentPort.postMessage({ type: "ready" });
`;

globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 200));
const baseline = process.memoryUsage().rss;
const worker = new Worker(WORKER, {
  eval: true,
  workerData: { wasmModule, core: require.resolve("quickjs-emscripten-core"), variant: require.resolve(VARIANT), glue: require.resolve(`${VARIANT}/emscripten-module`) },
  resourceLimits: { maxYoungGenerationSizeMb: 4 },
});
await new Promise((resolve) => worker.once("message", resolve));
await new Promise((resolve) => setTimeout(resolve, 200));
const oneWorker = process.memoryUsage().rss;
/** One batch of N runs: all live at once (each waiting in its host call), then all answered. Returns the peak RSS. */
function batch() {
  const calls = [];
  let finished = 0;
  let peak = 0;
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m.type === "call") {
        calls.push(m.id);
        if (calls.length === N) {
          setTimeout(() => {
            peak = process.memoryUsage().rss;
            for (const id of calls) worker.postMessage({ type: "reply", id, text: "ok" });
          }, 300);
        }
      } else if (m.type === "done" && ++finished === N) {
        worker.off("message", onMessage);
        resolve(peak);
      }
    };
    worker.on("message", onMessage);
    for (let i = 0; i < N; i++) worker.postMessage({ type: "run", index: i });
  });
}
const peak = await batch();
worker.postMessage({ type: "gc" });
await new Promise((resolve) => worker.once("message", resolve));
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 500));
const beforeSecond = process.memoryUsage().rss;
const secondPeak = await batch();
const done = ["30002"];
await worker.terminate();
const mb = (bytes) => (bytes / 1e6).toFixed(1);
console.log(`${N} live sandboxes in one worker: peak RSS ${mb(peak)} MB, before the worker ${mb(baseline)} MB, idle worker ${mb(oneWorker - baseline)} MB`);
console.log(`per live sandbox, the worker's own cost shared out: ${mb((peak - baseline) / N)} MB; above an idle worker: ${mb((peak - oneWorker) / N)} MB`);
console.log(`second batch of ${N} in the same worker (new instances; the first batch's ended): ${mb((secondPeak - beforeSecond) / N)} MB each above the RSS before it (${mb(beforeSecond)} MB)`);
void done;
