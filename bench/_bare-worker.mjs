// References for the sandbox section (bench/sandbox.mjs): what a bare Node worker thread costs, with none of
// mcpvm's code in it. Files starting with _ are not sections.
import { Worker } from "node:worker_threads";
import { summarize } from "./_stats.mjs";

/** A bare worker thread starting and answering once, 9 times. */
export async function bareWorkerStart() {
  const times = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage(0);', { eval: true });
    await new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject));
    times.push(performance.now() - started);
    await worker.terminate();
  }
  return summarize(times);
}

/**
 * A bare worker that echoes messages: `ping()` is one message to it and its answer (ms). The floor under
 * a worker engine's warm run, when pinged after the same idle pause.
 */
export async function echoWorker() {
  const worker = new Worker('const { parentPort } = require("node:worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m));', { eval: true });
  const ping = () => {
    const started = performance.now();
    return new Promise((resolve) => {
      worker.once("message", () => resolve(performance.now() - started));
      worker.postMessage(0);
    });
  };
  await ping();
  return { ping, close: () => worker.terminate() };
}
