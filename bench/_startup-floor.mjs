// The floor under a whole-process `mcpvm run` (files starting with _ are not benchmarks themselves):
// run as `node bench/_startup-floor.mjs`, it starts Node, compiles the QuickJS wasm module, starts one
// worker thread that instantiates it, evaluates `1` in a fresh QuickJS runtime and context, and
// exits — the same pieces as our engine, with none of mcpvm's code. Like `mcpvm run`, it compiles wasm
// with Liftoff only; `--tier-up` keeps V8's default tier-up to TurboFan. bench/cli.mjs times this process
// beside `node -e 0` and `mcpvm run`.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";

// As `mcpvm run` (src/cli/one-run-process.ts): V8's baseline wasm compiler only, unless `--tier-up`.
if (!process.argv.includes("--tier-up")) setFlagsFromString("--liftoff-only");

const require = createRequire(import.meta.url);
const VARIANT = "@jitl/quickjs-wasmfile-release-sync";
// eslint-disable-next-line no-undef -- the global exists in Node; the lint config does not declare it
const wasmModule = await WebAssembly.compile(await readFile(require.resolve(`${VARIANT}/wasm`)));
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const core = require(workerData.core);
const published = require(workerData.variant).default;
const variant = { type: "sync", importFFI: published.importFFI, importModuleLoader: () => Promise.resolve(require(workerData.emscripten)) };
core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmModule: workerData.wasmModule })).then((module) => {
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  const handle = context.unwrapResult(context.evalCode("1"));
  parentPort.postMessage(context.getNumber(handle));
  handle.dispose(); context.dispose(); runtime.dispose();
});`;
const worker = new Worker(workerSource, {
  eval: true,
  workerData: { wasmModule, core: require.resolve("quickjs-emscripten-core"), variant: require.resolve(VARIANT), emscripten: require.resolve(`${VARIANT}/emscripten-module`) },
});
const value = await new Promise((resolve, reject) => {
  worker.once("message", resolve);
  worker.once("error", reject);
});
await worker.terminate();
process.stdout.write(`${value}\n`);
